// `npm run bench:poll [-- --assets 100000 --moved 0.2 --rounds 3]`: the 15 s poll of a large
// organization (part 1 §7) at scale, through the list's pages against the fleet snapshot since a
// time (docs/decisions/spec.md "The fleet snapshot since a time"). Timings measured, never asserted
// (bench/README.md "Poll of a large organization").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { buildServer } from '../server/app';
import { hashPassword } from '../server/auth/secrets';
import { readConfig } from '../server/config';
import { openDatabase } from '../server/db/connection';
import { ensureReferenceData } from '../server/db/reference-data';
import { organizations, roles, things, thingTypes, users } from '../server/db/schema';
import { THINGS_PAGE_MAX } from '../src/domain/constants';
import { LiveApi } from '../src/workers/live-api';
import { LiveCore } from '../src/workers/live-core';
import { percentile } from './measure';

const { values: args } = parseArgs({
  options: {
    assets: { type: 'string', default: '100000' },
    moved: { type: 'string', default: '0.2' },
    rounds: { type: 'string', default: '3' },
  },
});
const ASSETS = Number(args.assets);
const MOVED = Number(args.moved);
const ROUNDS = Number(args.rounds);
const PASSWORD = 'Bench#Pass1';

/** One poll's figures: bytes received, the calls' round trips (server and loopback), the worker's parse and apply. */
interface PollFigures {
  changed: number;
  calls: number;
  bytes: number;
  serverMs: number;
  parseMs: number;
  applyMs: number;
}

process.env.LIGHTBAR_FAST_HASH = '1';
const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-bench-poll-'));
const database = await openDatabase({ dataDir: null });
const { db } = database;
await ensureReferenceData(db);
const [org] = await db.insert(organizations).values({ name: 'Bench Poll Org' }).returning();
const [role] = await db.select().from(roles).where(eq(roles.name, 'ADMIN'));
await db.insert(users).values({
  organizationId: org!.id,
  email: 'poll@example.com',
  firstname: 'B',
  lastname: 'B',
  roleId: role!.id,
  passwordHash: await hashPassword(PASSWORD),
  passwordChangedAt: new Date(),
  lastActivityAt: new Date(),
});
const [type] = await db.select().from(thingTypes).where(eq(thingTypes.name, 'police'));
const seeded = performance.now();
const at = new Date();
for (let i = 0; i < ASSETS; i += 1000) {
  await db.insert(things).values(
    Array.from({ length: Math.min(1000, ASSETS - i) }, (_, j) => {
      const n = i + j;
      return {
        organizationId: org!.id,
        haasId: `HA5-P${n}`,
        nickname: `Unit ${n}`,
        thingTypeId: type!.id,
        lat: 30.1 + (n % 1000) / 2_000,
        lng: -97.9 + Math.floor(n / 1000) / 400,
        accuracy: 5,
        course: n % 360,
        speed: 10,
        street: 'N Lamar Blvd',
        heartbeatAt: at,
      };
    }),
  );
}
console.log(`${ASSETS} assets seeded in ${Math.round(performance.now() - seeded)} ms`);

const app = await buildServer(readConfig({ DATA_DIR: dataDir, DIST_DIR: path.join(dataDir, 'none') }, 'bench'), { database });
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const signIn = await fetch(`${base}/user_token`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ grant_type: 'password', application: 'dashboard', username: 'poll@example.com', password: PASSWORD }),
});
const token = ((await signIn.json()) as { access_token: string }).access_token;

/** The worker's calls, each answer read whole before the worker parses it: its time is the server's (and loopback's). */
let current: PollFigures;
const timedFetch = async (input: string, init: RequestInit): Promise<Response> => {
  const start = performance.now();
  const response = await fetch(input, init);
  const body = response.status === 304 ? null : await response.arrayBuffer();
  current.serverMs += performance.now() - start;
  current.calls += 1;
  current.bytes += body?.byteLength ?? 0;
  return new Response(body, { status: response.status, headers: response.headers });
};
const api = new LiveApi({ apiBase: base, token: () => token, fetch: timedFetch, orgIds: [], perPage: THINGS_PAGE_MAX });

/** Times the worker's parse of one answer (the call's time taken out) and its apply to the fleet. */
async function worker<T>(call: () => Promise<T>, apply: (answer: T) => void): Promise<T> {
  const server = current.serverMs;
  const start = performance.now();
  const answer = await call();
  current.parseMs += performance.now() - start - (current.serverMs - server);
  const applied = performance.now();
  apply(answer);
  current.applyMs += performance.now() - applied;
  return answer;
}

const fresh = (): PollFigures => ({ changed: 0, calls: 0, bytes: 0, serverMs: 0, parseMs: 0, applyMs: 0 });

// Two fleets loaded alike from the full snapshot: one polled through the pages, one through the snapshot since.
current = fresh();
const byPages = new LiveCore();
const bySnapshot = new LiveCore();
const full = await api.thingSnapshot();
byPages.loadThings(full.wires, [], Date.now());
bySnapshot.loadThings(full.wires, [], Date.now());
let pagesSince = new Date().toISOString();
let snapshotSince = pagesSince;

/** The pages path of FleetLoad.read with `since` (one after another here, so each call's time is its own). */
async function pollPages(): Promise<PollFigures> {
  current = fresh();
  const first = await worker(
    () => api.thingsPage(1, pagesSince),
    (page) => byPages.loadThings(page.things, page.deletedIds, Date.now()),
  );
  for (let page = 2; page <= first.pages; page += 1) {
    await worker(
      () => api.thingsPage(page, pagesSince),
      (answer) => byPages.loadThings(answer.things, [], Date.now()),
    );
  }
  current.changed = first.total;
  pagesSince = first.serverTimestamp;
  return current;
}

/** FleetLoad.poll's compact path: the snapshot since the last poll. */
async function pollSnapshot(): Promise<PollFigures> {
  current = fresh();
  const changes = await worker(
    () => api.thingChanges(snapshotSince),
    (answer) => bySnapshot.loadThings(answer!.wires, answer!.deletedIds, Date.now()),
  );
  current.changed = changes!.wires.length;
  snapshotSince = changes!.serverTimestamp;
  return current;
}

const pages: PollFigures[] = [];
const snapshots: PollFigures[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  // A fifth of the fleet moved since the last poll, as the ingest's flush writes it.
  const share = Math.round(1 / MOVED);
  await db.execute(sql`update ${things} set lat = ${things.lat} + 0.0005, lng = ${things.lng} - 0.0005, course = (${things.course} + 7)::int % 360,
    speed = 12 + ${round}, heartbeat_at = now(), updated_at = now() where abs(hashtext(${things.id}::text || ${String(round)})) % ${share} = 0`);
  pages.push(await pollPages());
  snapshots.push(await pollSnapshot());
  const [p, s] = [pages.at(-1)!, snapshots.at(-1)!];
  console.log(
    `round ${round + 1}: ${p.changed} changed; pages ${p.bytes} B ${p.serverMs.toFixed(0)} ms server, ${(p.parseMs + p.applyMs).toFixed(0)} ms worker;` +
      ` snapshot since ${s.bytes} B ${s.serverMs.toFixed(0)} ms server, ${(s.parseMs + s.applyMs).toFixed(0)} ms worker`,
  );
}
// The same fleet either way.
const differ = [...byPages.fleet.assets].filter((asset) => {
  if (!asset) return false;
  const other = bySnapshot.fleet.get(asset.id);
  return (
    !other ||
    JSON.stringify([other.position, other.heartbeatTime, other.course, other.speed, other.updatedAt]) !==
      JSON.stringify([asset.position, asset.heartbeatTime, asset.course, asset.speed, asset.updatedAt])
  );
}).length;

// An unchanged fleet: both calls asked again with the same time answer 304 (no body).
current = fresh();
const quietSince = snapshotSince;
await api.thingChanges(quietSince);
await api.thingChanges(quietSince);
const quiet = current;

const p50 = (list: PollFigures[], pick: (f: PollFigures) => number) => {
  const sorted = list.map(pick).sort((a, b) => a - b);
  return Math.round(percentile(sorted, 50) * 10) / 10;
};
const summary = (list: PollFigures[]) => ({
  changed: p50(list, (f) => f.changed),
  calls: p50(list, (f) => f.calls),
  bytesPerPoll: p50(list, (f) => f.bytes),
  bytesPerChangedAsset: p50(list, (f) => f.bytes / Math.max(1, f.changed)),
  serverMs: p50(list, (f) => f.serverMs),
  workerParseMs: p50(list, (f) => f.parseMs),
  workerApplyMs: p50(list, (f) => f.applyMs),
  workerMs: p50(list, (f) => f.parseMs + f.applyMs),
});
const result = {
  machine,
  date: new Date().toISOString(),
  assets: ASSETS,
  moved: MOVED,
  rounds: ROUNDS,
  pages: summary(pages),
  snapshotSince: summary(snapshots),
  unchangedPoll: { calls: quiet.calls, bytes: quiet.bytes, serverMs: Math.round(quiet.serverMs * 10) / 10 },
  assetsDifferingBetweenPaths: differ,
};
console.log(JSON.stringify(result, null, 2));
const dir = process.env.BENCH_RESULTS_DIR ?? path.join(import.meta.dirname, 'results');
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, 'poll.json'), `${JSON.stringify(result, null, 2)}\n`);
await app.close();
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });
