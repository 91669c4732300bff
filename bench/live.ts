import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import WebSocket from 'ws';
import { eventsChannelIdentifier } from '../src/domain/live-message';
import { buildServer } from '../server/app';
import { SOCKETS_PER_USER_MAX } from '../server/live/cable';
import { hashPassword, hashToken } from '../server/auth/secrets';
import { readConfig } from '../server/config';
import { openDatabase } from '../server/db/connection';
import { ensureReferenceData } from '../server/db/reference-data';
import { apiKeys, organizations, roles, things, thingTypes, users } from '../server/db/schema';
import { percentile } from './measure';

export interface LiveBenchRow {
  assets: number;
  clients: number;
  ingestMessagesPerSecond: number;
  deliveredFramesPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  rssMiB: number;
}

/**
 * The ingest and fan-out bench: one point per asset posted through POST /ingest (batches of 5,000) to one server
 * process on an in-memory PGlite, fanned out to `clients` sockets on loopback in the same process
 * (so the clients' own parsing competes for the same 2 cores: a conservative figure).
 */
export async function benchLive(sizes: readonly number[], clientCounts: readonly number[]): Promise<LiveBenchRow[]> {
  process.env.LIGHTBAR_FAST_HASH = '1';
  const rows: LiveBenchRow[] = [];
  for (const assets of sizes) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-bench-'));
    const database = await openDatabase({ dataDir: null });
    await ensureReferenceData(database.db);
    const [org] = await database.db.insert(organizations).values({ name: 'Bench Org' }).returning();
    const [role] = await database.db.select().from(roles).where(eq(roles.name, 'ADMIN'));
    // One user per SOCKETS_PER_USER_MAX sockets: the server refuses more live connections per user.
    const userCount = Math.ceil(Math.max(...clientCounts) / SOCKETS_PER_USER_MAX);
    const passwordHash = await hashPassword('Bench#Pass1');
    const benchUsers = await database.db
      .insert(users)
      .values(
        Array.from({ length: userCount }, (_, i) => ({
          organizationId: org!.id,
          email: `bench${i}@example.com`,
          firstname: 'B',
          lastname: 'B',
          roleId: role!.id,
          passwordHash,
          passwordChangedAt: new Date(),
          lastActivityAt: new Date(),
        })),
      )
      .returning();
    const user = benchUsers[0];
    const key = 'lb_bench_key_0000000001';
    await database.db
      .insert(apiKeys)
      .values({ userId: user!.id, organizationId: org!.id, description: 'bench', tokenHash: hashToken(key), tokenPrefix: 'lb_ben' });
    const [type] = await database.db.select().from(thingTypes).where(eq(thingTypes.name, 'police'));
    for (let i = 0; i < assets; i += 1000) {
      const chunk = Array.from({ length: Math.min(1000, assets - i) }, (_, j) => ({
        organizationId: org!.id,
        haasId: `HA5-B${i + j}`,
        thingTypeId: type!.id,
      }));
      await database.db.insert(things).values(chunk);
    }
    const app = await buildServer(readConfig({ DATA_DIR: dataDir, DIST_DIR: path.join(dataDir, 'none') }, 'bench'), { database });
    await app.ingest!.reload();
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const tokens = await Promise.all(
      benchUsers.map(async ({ email }) => {
        const signIn = await fetch(`${base}/user_token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ grant_type: 'password', application: 'dashboard', username: email, password: 'Bench#Pass1' }),
        });
        return ((await signIn.json()) as { access_token: string }).access_token;
      }),
    );

    for (const clientCount of clientCounts) {
      const latencies: number[] = [];
      let delivered = 0;
      const sockets = await Promise.all(
        Array.from(
          { length: clientCount },
          (_, i) =>
            new Promise<WebSocket>((resolve, reject) => {
              const token = tokens[Math.floor(i / SOCKETS_PER_USER_MAX)]!;
              const ws = new WebSocket(`${base.replace('http', 'ws')}/cable`, ['actioncable-v1-json', token]);
              ws.on('unexpected-response', (_request, response) => reject(new Error(`cable handshake ${response.statusCode}`)));
              ws.on('message', (data) => {
                const frame = JSON.parse(data.toString()) as { type?: string; message?: { type: string; timestamp: string } };
                if (frame.type === 'confirm_subscription') resolve(ws);
                if (frame.message?.type === 'point') {
                  delivered += 1;
                  if (delivered % 7 === 0) latencies.push(Date.now() - Date.parse(frame.message.timestamp));
                }
              });
              ws.on('open', () => ws.send(JSON.stringify({ command: 'subscribe', identifier: eventsChannelIdentifier(org!.id) })));
            }),
        ),
      );
      const expected = assets * clientCount;
      const start = performance.now();
      let rssPeak = process.memoryUsage().rss;
      for (let i = 0; i < assets; i += 5000) {
        const messages = Array.from({ length: Math.min(5000, assets - i) }, (_, j) => ({
          type: 'point',
          haas_id: `HA5-B${i + j}`,
          lat: 30.2 + ((i + j) % 1000) / 10_000,
          lng: -97.7,
          speed: 20,
          timestamp: new Date().toISOString(),
        }));
        const response = await fetch(`${base}/ingest`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key },
          body: JSON.stringify({ messages }),
        });
        if (!response.ok) throw new Error(`ingest ${response.status}`);
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      }
      const ingested = performance.now();
      const deadline = Date.now() + 120_000;
      while (delivered < expected && Date.now() < deadline) {
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const done = performance.now();
      latencies.sort((a, b) => a - b);
      rows.push({
        assets,
        clients: clientCount,
        ingestMessagesPerSecond: Math.round(assets / ((ingested - start) / 1000)),
        deliveredFramesPerSecond: Math.round(delivered / ((done - start) / 1000)),
        latencyP50Ms: percentile(latencies, 50),
        latencyP99Ms: percentile(latencies, 99),
        rssMiB: Math.round(rssPeak / 1_048_576),
      });
      if (delivered < expected)
        console.warn(`  ${assets} assets × ${clientCount} clients: only ${delivered} of ${expected} frames in 120 s`);
      for (const ws of sockets) ws.close();
      await app.ingest!.flush();
    }
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}
