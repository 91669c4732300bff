/**
 * The application bench's harness at a tiny size (bench/README.md "Application bench"): against the real
 * server, the built dashboard and the load driver, it reads every figure of a row — the page's own
 * measures included. It proves the bench works; no time is asserted (figures come from `npm run bench:app`).
 * The profilers (--profile) depend on DevTools target timing and are left to `npm run bench:app -- --smoke`.
 */
import { expect, test } from '@playwright/test';
import { appBenchTable, runAppBench } from '../bench/app';

test('the application bench measures a 60-asset dashboard under 60 messages a second', async () => {
  test.setTimeout(300_000);
  const log: string[] = [];
  // The first visit on a throttled link is two more cold page loads: `npm run bench:app -- --smoke` checks it.
  const rows = await runAppBench({ sizes: [60], rateCap: 60, windowS: 4, settleS: 1, firstVisit: false, log: (line) => log.push(line) });
  // A row that failed is left out and its reason logged.
  expect(rows, log.join('\n')).toHaveLength(1);
  const r = rows[0]!;
  expect(r.engine).toBe('pglite');
  expect(r.processes).toBe(1);
  expect(r.assets).toBe(60);
  expect(r.rate).toBe(60);
  // The server took every message the driver sent.
  expect(r.achievedRate).toBeGreaterThan(0);
  expect(r.notAccepted).toBe(0);
  // The reload under load drew all 60 assets from one page of things (part 1 §7: 500 a page).
  expect(r.firstFullMapMs).toBeGreaterThan(0);
  expect(r.firstLoadUnloadedMs).toBeGreaterThan(0);
  expect(r.pages).toBe(1);
  expect(r.pagesLoaded).toBe(1);
  // The first useful screen after each reload: the Live list's first row and the Events panel's counts, read by the page.
  expect(r.firstListMs).toBeGreaterThan(0);
  // The reload's timeline: the worker's first page of 500 (the whole fleet of 60), then its mark.
  const timeline = r.reloadTimeline!.join('\n');
  expect(timeline).toMatch(/^worker \/organization\/things p1×500 \d+→\d+→\d+ \(\d+ KiB\)$/m);
  expect(timeline).toMatch(/^first page applied \d+$/m);
  expect(timeline).toMatch(/^page \d+ files done \d+$/m);
  expect(timeline).not.toContain('snapshot');
  expect(r.firstEventsMs).toBeGreaterThan(0);
  // The page measured its worker's batches (one a second) and the age of the positions it drew.
  expect(r.batches).toBeGreaterThanOrEqual(2);
  expect(r.positionsDrawn).toBeGreaterThan(0);
  expect(r.positionsDrawn).toBeLessThanOrEqual(60 * (r.windowS + 2));
  expect(r.stalenessP50Ms).toBeGreaterThan(0);
  expect(r.stalenessP99Ms).toBeGreaterThanOrEqual(r.stalenessP50Ms!);
  expect(r.windowS).toBeGreaterThan(3);
  expect(r.taskMsPerS).toBeGreaterThan(0);
  // Heaps of the page and of the live worker, the server's memory, and the fair pipeline's figure.
  expect(r.pageHeapMiB).toBeGreaterThan(0);
  expect(r.workerHeapMiB).toBeGreaterThan(0);
  expect(r.heapMiB).toBeCloseTo(r.pageHeapMiB + r.workerHeapMiB!, 0);
  expect(r.serverRssMiB).toBeGreaterThan(0);
  expect(r.fairMsPerSP50).not.toBeNull();
  // Where the cores went, over the reload and the window: the server, the bench, and Chromium's
  // processes with the page's main thread and its live worker apart (their threads found by name).
  for (const share of [r.reloadCpu!, r.windowCpu]) {
    expect(share.cores).toBeGreaterThan(0);
    expect(share.busyCores).toBeGreaterThan(0);
    expect(Object.keys(share.coresByGroup)).toEqual(
      expect.arrayContaining([
        'server',
        'bench (load driver, Playwright)',
        'Chromium page main thread',
        'Chromium live worker',
        'Chromium GPU process',
      ]),
    );
  }
  expect(r.windowCpu.coresByGroup.server).toBeGreaterThan(0);
  // Without --profile the row carries no profile.
  expect(r.profileTop).toBeUndefined();
  expect(r.reloadWorkerTop).toBeUndefined();
  expect(appBenchTable([r]).split('\n')[2]).toMatch(/^\| 60 \| PGlite, 1 \| 60 \| \d+ \|/);
  expect(appBenchTable([r]).split('\n')[2]).toContain(`| ${r.firstListMs} / ${r.firstEventsMs} |`);
});
