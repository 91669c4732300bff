/**
 * Crash safety of the embedded database (ARCHITECTURE "Embedded default and scale-out"): a write
 * the server answered with a 2xx is committed, so a kill -9 (a crash, the out-of-memory killer,
 * a pulled plug of the container) in the middle of a stream of writes loses none of them, and the
 * server starts again on the same DATA_DIR.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areaTypeWireSchema, areaWireSchema } from '../../src/domain/area';
import { thingWireSchema } from '../../src/domain/asset';
import { profileWireSchema } from '../../src/domain/profile';
import { DEMO_PASSWORD } from '../../server/seed/demo';
import { LOCK_FILE, parseLock } from '../../server/db/data-dir-lock';
import { spawnServer, templateDataDir, type SpawnedServer } from '../support/spawn-server';
import { until } from '../support/until';

const START_TIMEOUT_MS = 120_000;
/** Writers at once, each with its own asset (so the last answered edit of an asset is well defined). */
const WRITERS = 4;
/** Answered writes before the kill: enough that the kill lands in the middle of the stream. */
const ACKED_BEFORE_KILL = 40;
/** A writer stops after this many writes, whatever happens (a bound, should the kill not come). */
const MAX_WRITES_PER_WRITER = 400;
/** Degrees: a small square area, away from the others. */
const AREA_SIDE = 0.001;

let dataDir = '';
let server: SpawnedServer | null = null;

async function signIn(base: string): Promise<string> {
  const answer = await fetch(`${base}/user_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'password', application: 'dashboard', username: 'admin@lightbar.demo', password: DEMO_PASSWORD }),
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { access_token: string }).access_token;
}

async function getJson(base: string, token: string, url: string): Promise<{ status: number; json: unknown }> {
  const answer = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: answer.status, json: await answer.json() };
}

function square(lat: number, lng: number, side: number): number[][] {
  return [
    [lng, lat],
    [lng + side, lat],
    [lng + side, lat + side],
    [lng, lat + side],
    [lng, lat],
  ];
}

beforeAll(async () => {
  dataDir = templateDataDir('lightbar-fault-kill-');
  // The demo seed (3 assets, no simulator traffic beyond them) gives accounts and assets to edit.
  server = await spawnServer({ PORT: '0', DATA_DIR: dataDir, LIGHTBAR_DEMO: '1', SIM_ASSETS: '3' }, START_TIMEOUT_MS);
}, START_TIMEOUT_MS);

afterAll(async () => {
  await server?.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('kill -9 in the middle of a stream of writes', () => {
  it('every write answered with a 2xx before the kill is in the database after a restart on the same DATA_DIR', async () => {
    const first = server!;
    const token = await signIn(first.url);
    const profile = profileWireSchema.parse((await getJson(first.url, token, '/profile')).json);
    const types = areaTypeWireSchema.array().parse((await getJson(first.url, token, '/ez_types')).json);
    const things = thingWireSchema
      .array()
      .parse(((await getJson(first.url, token, '/organization/things?per_page=100')).json as { data: unknown[] }).data);
    const own = things.slice(0, WRITERS);
    expect(own.length).toBeGreaterThan(0);

    const areasAnswered: { id: string; name: string }[] = [];
    /** Per asset: the last nickname answered with 200, and the one in flight at the kill (it may or may not have committed). */
    const nicknames = new Map<string, { answered: string | null; inFlight: string | null }>(
      own.map((thing) => [thing.id, { answered: null, inFlight: null }]),
    );
    let answered = 0;
    let killed = false;
    let failure: unknown = null;
    /** Requests the kill cut off: proof that it came in the middle of the stream. */
    let broken = 0;

    async function writer(index: number): Promise<void> {
      const thing = own[index];
      const state = thing ? nicknames.get(thing.id)! : null;
      for (let n = 0; n < MAX_WRITES_PER_WRITER && !killed; n += 1) {
        const name = `Fault ${index}-${n}`;
        try {
          if (!thing || !state || n % 2 === 0) {
            const lat = 30.2 + index * AREA_SIDE * 10;
            const lng = -97.8 + n * AREA_SIDE * 2;
            const answer = await fetch(`${first.url}/organization/exclusion_zone`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
              body: JSON.stringify({
                organization_id: profile.organization_id,
                name,
                ez_type_id: types.find((type) => !type.is_station_view)?.id ?? types[0]!.id,
                area_geom: { type: 'Polygon', coordinates: [square(lat, lng, AREA_SIDE)] },
                point_geom: { lat: lat + AREA_SIDE / 2, lon: lng + AREA_SIDE / 2 },
              }),
            });
            if (answer.status === 201) {
              areasAnswered.push({ id: areaWireSchema.parse(await answer.json()).id, name });
              answered += 1;
            } else expect(answer.status, await answer.text()).toBe(201);
          } else {
            state.inFlight = name;
            const answer = await fetch(`${first.url}/things/${thing.id}`, {
              method: 'PUT',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
              body: JSON.stringify({ id: thing.id, in_service: true, is_publicly_alerting: true, nickname: name }),
            });
            if (answer.status === 200) {
              await answer.arrayBuffer();
              state.answered = name;
              answered += 1;
            } else expect(answer.status, await answer.text()).toBe(200);
          }
        } catch (error) {
          // Only the kill may break a request: a connection reset or refused once it came.
          if (!killed) failure ??= error;
          else broken += 1;
          return;
        }
      }
    }

    const writers = Array.from({ length: WRITERS }, (_, index) => writer(index));
    await until(() => failure !== null || answered >= ACKED_BEFORE_KILL, `${ACKED_BEFORE_KILL} answered writes`, 60_000, 5);
    if (failure) throw failure;
    killed = true;
    await first.kill();
    await Promise.all(writers);
    if (failure) throw failure;
    expect(broken).toBeGreaterThan(0);
    const areasBefore = [...areasAnswered];
    const nicknamesBefore = new Map([...nicknames].map(([id, state]) => [id, { ...state }]));

    // The process died holding the data folder's lock: the next start takes it over (its process is gone).
    expect(parseLock(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(first.pid);
    server = await first.restart(START_TIMEOUT_MS);
    expect(server.output()).toContain('Demo data already present');
    const again = await signIn(server.url);

    for (const area of areasBefore) {
      const found = await getJson(server.url, again, `/organization/exclusion_zone/${area.id}`);
      expect(found.status, `area ${area.name}`).toBe(200);
      expect(areaWireSchema.parse(found.json).name).toBe(area.name);
    }
    const after = thingWireSchema
      .array()
      .parse(((await getJson(server.url, again, '/organization/things?per_page=100')).json as { data: unknown[] }).data);
    for (const [id, state] of nicknamesBefore) {
      if (state.answered === null) continue;
      // The answered edit, or the one that was in flight at the kill and made it to the disk.
      expect([state.answered, state.inFlight]).toContain(after.find((thing) => thing.id === id)?.nickname);
    }
    expect(areasBefore.length).toBeGreaterThan(0);
  }, 240_000);
});
