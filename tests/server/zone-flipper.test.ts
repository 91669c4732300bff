/**
 * part 2 §2 Alerting zones, §4 status: the simulator's zone flipper turns one zone of the simulated
 * organizations active/standby at a time in the database, GET /organization/alerting_zones shows
 * the new status (active first, §4), other organizations' zones are never touched, and stop() ends
 * the flipping.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertingZoneWireSchema, fromAlertingZoneWire } from '../../src/domain/alerting-zone';
import { alertingZones } from '../../server/db/schema';
import type { IngestEngine } from '../../server/live/ingest';
import { seedDemo } from '../../server/seed/demo';
import { FleetSimulator } from '../../server/sim/simulator';
import { ZoneFlipper } from '../../server/sim/zone-flipper';
import { call } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
let orgA: { id: string };
let orgB: { id: string };
let adminA = '';
let zoneIds: string[] = [];
let otherZoneId = '';

beforeAll(async () => {
  server = await createTestServer();
  const db = server.database.db;
  orgA = await server.createOrg({ name: 'Alpha County' });
  orgB = await server.createOrg({ name: 'Bravo City' });
  adminA = await server.signIn((await server.createUser({ org: orgA, role: 'ADMIN' })).email);
  const rows = await db
    .insert(alertingZones)
    .values([
      { organizationId: orgA.id, typeName: 'School Zone', description: 'Austin High', isActive: true },
      { organizationId: orgA.id, typeName: 'Work Zone', description: 'Bridge works', isActive: false },
    ])
    .returning({ id: alertingZones.id });
  zoneIds = rows.map((row) => row.id).sort();
  const [other] = await db
    .insert(alertingZones)
    .values({ organizationId: orgB.id, typeName: 'Work Zone', description: 'B zone', isActive: true })
    .returning({ id: alertingZones.id });
  otherZoneId = other!.id;
});
afterAll(() => server.close());

async function listed(): Promise<Map<string, string>> {
  const answer = await call(server, 'GET', `/organization/alerting_zones?org_ids[]=${orgA.id}`, adminA);
  expect(answer.status).toBe(200);
  const zones = alertingZoneWireSchema.array().parse(answer.json).map(fromAlertingZoneWire);
  // part 2 §4: active first.
  const statuses = zones.map((zone) => zone.status);
  expect(statuses).toEqual([...statuses].sort());
  return new Map(zones.map((zone) => [zone.id, zone.status]));
}

async function otherIsActive(): Promise<boolean> {
  const [row] = await server.database.db.select().from(alertingZones).where(eq(alertingZones.id, otherZoneId));
  return row!.isActive;
}

describe('part2 §2 alerting zones: the simulator flips zones', () => {
  it('flips the zones of its organizations in turn, and the GET shows the new status', async () => {
    const flipper = new ZoneFlipper(server.deps, [orgA.id]);
    const before = await listed();
    const first = await flipper.flipNext();
    expect(first?.zoneId).toBe(zoneIds[0]);
    const after = await listed();
    expect(after.get(zoneIds[0]!)).toBe(before.get(zoneIds[0]!) === 'active' ? 'standby' : 'active');
    expect(after.get(zoneIds[1]!)).toBe(before.get(zoneIds[1]!));
    // The next flip takes the next zone; a second round brings both back.
    expect((await flipper.flipNext())?.zoneId).toBe(zoneIds[1]);
    await flipper.flipNext();
    await flipper.flipNext();
    expect(await listed()).toEqual(before);
    expect(await otherIsActive()).toBe(true);
  });

  it('flips on its period once started, and never after stop()', async () => {
    const flipper = new ZoneFlipper(server.deps, [orgA.id]);
    const before = await listed();
    flipper.start(30);
    await expect.poll(async () => (await listed()).get(zoneIds[0]!), { timeout: 5_000, interval: 20 }).not.toBe(before.get(zoneIds[0]!));
    await flipper.stop();
    const stopped = await listed();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await listed()).toEqual(stopped);
    expect(await otherIsActive()).toBe(true);
  });

  it('an organization with no zones (or none given) flips nothing', async () => {
    expect(await new ZoneFlipper(server.deps, []).flipNext()).toBeNull();
    const empty = await server.createOrg({ name: 'Empty Org' });
    expect(await new ZoneFlipper(server.deps, [empty.id]).flipNext()).toBeNull();
  });
});

describe('part2 §2 alerting zones: the fleet simulator flips the demo zones between start() and stop()', () => {
  it('flips a demo zone on its SIM_ZONE_FLIP_MS period, and none after stop()', async () => {
    const demo = await createTestServer();
    try {
      await seedDemo(demo.deps, { assets: 20, seed: 7 });
      const db = demo.database.db;
      const states = async () =>
        new Map(
          (await db.select({ id: alertingZones.id, isActive: alertingZones.isActive }).from(alertingZones)).map((z) => [z.id, z.isActive]),
        );
      const before = await states();
      expect(before.size).toBeGreaterThan(0);
      const fake = {
        ingest: async (batch: readonly unknown[]) => ({ accepted: batch.length, rejected: [] }),
        setStreetLookup: () => undefined,
      };
      const sim = await new FleetSimulator(demo.deps, fake as unknown as IngestEngine, { assets: 20, seed: 1, zoneFlipMs: 25 }).load();
      sim.start(1_000);
      const changed = async () => [...(await states())].filter(([id, active]) => before.get(id) !== active).length;
      await expect.poll(changed, { timeout: 5_000, interval: 20 }).toBeGreaterThan(0);
      await sim.stop();
      const stopped = await states();
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(await states()).toEqual(stopped);
    } finally {
      await demo.close();
    }
  });
});
