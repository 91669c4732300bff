// The ingest bench (`npm run bench:ingest`, bench/ingest.ts) at a tiny size on PGlite: the real
// server, the load driver and live dashboards, each second sampled. What it reports is checked for
// shape only: no time is asserted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestBenchTable, leastSquaresSlope, messagesInFrame, runIngestBench } from '../../bench/ingest';

describe('ingest bench', () => {
  it('runs a row on PGlite: every second sampled, every dashboard fed, the server’s RSS read, its CPU profile, one table row', async () => {
    const log: string[] = [];
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-ingest-profile-'));
    const rows = await runIngestBench({
      rows: [{ assets: 20, rate: 20 }],
      seconds: 4,
      dashboards: 2,
      batched: true,
      profile,
      log: (line) => log.push(line),
    });
    expect(rows, log.join('\n')).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({ assets: 20, engine: 'pglite', processes: 1, dashboards: 2, batched: true, rate: 20, seconds: 4 });
    expect(row!.samples.length).toBeGreaterThanOrEqual(3);
    expect(row!.samples.length).toBeLessThanOrEqual(5);
    expect(row!.achievedRate).toBeGreaterThan(0);
    // Both dashboards received the organization's live messages over the run.
    expect(row!.deliveredMeanPerS).toBeGreaterThan(0);
    const totals = [0, 1].map((i) => row!.samples.reduce((sum, sample) => sum + sample.deliveredPerS[i]!, 0));
    expect(totals.every((total) => total > 0)).toBe(true);
    // The cores used while the driver sent: the server's, the driver's and the dashboards' process apart.
    expect(row!.cpu!.cores).toBeGreaterThan(0);
    expect(row!.cpu!.coresByGroup.server).toBeGreaterThan(0);
    expect(Object.keys(row!.cpu!.coresByGroup)).toEqual(
      expect.arrayContaining(['server', 'bench (load driver)', 'dashboards (their process)']),
    );
    // Batched, each message of a batch is counted: every accepted message reached both dashboards.
    expect(row!.deliveredShareMin).toBe(1);
    // One server process: its RSS at the start, the end, the peak and every second.
    expect(row!.rss).toHaveLength(1);
    const [rss] = row!.rss;
    for (const value of [rss!.startMiB, rss!.endMiB, rss!.maxMiB, ...row!.samples.map((sample) => sample.rssMiB[0]!)]) {
      expect(value).toBeGreaterThan(0);
    }
    expect(rss!.maxMiB).toBeGreaterThanOrEqual(rss!.endMiB);

    // The server process's CPU profile: written in its own directory, its functions by self time in the row.
    const written = fs.readdirSync(path.join(profile, 'ingest-20-1'));
    fs.rmSync(profile, { recursive: true, force: true });
    expect(written.some((name) => name.endsWith('.cpuprofile'))).toBe(true);
    expect(row!.profileTop).toHaveLength(1);
    expect(row!.profileTop![0]!.length).toBeGreaterThan(0);
    for (const entry of row!.profileTop![0]!) expect(entry).toEqual({ name: expect.any(String), selfMs: expect.any(Number) });

    const table = ingestBenchTable(rows).split('\n');
    expect(table).toHaveLength(3);
    expect(table[2]).toMatch(/^\| 20 \| PGlite, 1 \| 2 \(batches\) \| 20 \| /);
  }, 90_000);

  it('counts the live messages of a frame without parsing it: one, or each of a batch', () => {
    const identifier = JSON.stringify(JSON.stringify({ channel: 'EventsChannel', organization: 'o' }));
    const point = { type: 'point', thing_id: 't1', lat: 1, lng: 2, timestamp: '2026-12-03T21:00:00.000Z' };
    const heartbeat = { type: 'heartbeat', thing_id: 't2', is_active: true, timestamp: '2026-12-03T21:00:00.000Z' };
    expect(messagesInFrame(Buffer.from(`{"identifier":${identifier},"message":${JSON.stringify(point)}}`))).toBe(1);
    const batch = (messages: object[]) => Buffer.from(`{"identifier":${identifier},"messages":${JSON.stringify(messages)}}`);
    expect(messagesInFrame(batch([point]))).toBe(1);
    expect(messagesInFrame(batch([point, heartbeat, point]))).toBe(3);
  });

  it('fits the RSS slope by least squares (MiB per minute over the samples given)', () => {
    expect(leastSquaresSlope([])).toBeNull();
    expect(leastSquaresSlope([{ x: 1, y: 5 }])).toBeNull();
    expect(leastSquaresSlope([1, 2, 3, 4].map((x) => ({ x, y: 100 })))).toBe(0);
    expect(leastSquaresSlope([1, 2, 3, 4].map((x) => ({ x, y: 2 * x + 7 })))).toBeCloseTo(2, 10);
  });
});
