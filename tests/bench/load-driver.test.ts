// The load driver (`npm run load`, bench/README.md) against the real server on loopback: it sends
// what it says, the server stores it, and it sends nowhere but this machine. No time is asserted.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackUrl, runLoad, type LoadOptions } from '../../bench/load/driver';
import { apiKeys, things, thingTypes } from '../../server/db/schema';
import type { DeviceMessageInput } from '../../server/live/device-message';
import { createTestServer, PASSWORD, type TestServer } from '../support/test-server';

let server: TestServer;
let url: string;
let email: string;
let userId: string;
const benchHaasIds: string[] = [];
const otherHaasIds: string[] = [];

async function createThings(organizationId: string, prefix: string, count: number, into: string[]) {
  const [type] = await server.database.db.select().from(thingTypes).where(eq(thingTypes.name, 'police'));
  const rows = Array.from({ length: count }, (_, i) => ({ organizationId, haasId: `${prefix}${i}`, thingTypeId: type!.id }));
  await server.database.db.insert(things).values(rows);
  into.push(...rows.map((row) => row.haasId));
}

beforeAll(async () => {
  server = await createTestServer();
  const bench = await server.createOrg({ name: 'Bench Fleet' });
  const other = await server.createOrg({ name: 'Other Fleet' });
  const admin = await server.createUser({ org: bench, role: 'ADMIN' });
  email = admin.email;
  userId = admin.id;
  await createThings(bench.id, 'HA5-LOAD', 20, benchHaasIds);
  await createThings(other.id, 'HA5-OTHER', 5, otherHaasIds);
  await server.app.ingest!.reload();
  url = await server.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await server.close();
});

/** Messages stamped on the test server's clock, moving on with real time (the ingest refuses the future). */
function options(overrides: Partial<LoadOptions> = {}): LoadOptions {
  const startedAt = Date.now();
  return {
    url,
    assets: 20,
    rate: 40,
    seconds: 2,
    org: 'Bench Fleet',
    user: email,
    password: PASSWORD,
    clock: () => server.clock.ms + (Date.now() - startedAt),
    ...overrides,
  };
}

describe('load driver', () => {
  it('sends exactly rate × seconds device messages, all accepted, and the server stores each asset’s last report', async () => {
    const sent: DeviceMessageInput[] = [];
    const seconds: number[] = [];
    const summary = await runLoad(options({ onBatch: (batch) => sent.push(...batch), onSecond: (second) => seconds.push(second.sent) }));

    expect(summary).toMatchObject({
      organizations: ['Bench Fleet'],
      assets: 20,
      rate: 40,
      seconds: 2,
      planned: 80,
      sent: 80,
      unsent: 0,
      accepted: 80,
      rejected: 0,
      failed: 0,
      firstProblem: null,
    });
    expect(sent).toHaveLength(80);
    expect(seconds.reduce((a, b) => a + b, 0)).toBe(80);
    // Points and heartbeats, as devices send them.
    expect(summary.points + summary.heartbeats).toBe(80);
    expect(sent.filter((m) => m.type === 'point')).toHaveLength(summary.points);
    expect(sent.filter((m) => m.type === 'heartbeat')).toHaveLength(summary.heartbeats);
    expect(summary.heartbeats).toBeGreaterThan(0);
    expect(summary.points).toBeGreaterThan(summary.heartbeats);
    // The assets in turn: four messages each, none for another organization's.
    const perAsset = new Map<string, number>();
    for (const message of sent) perAsset.set(message.haas_id, (perAsset.get(message.haas_id) ?? 0) + 1);
    expect([...perAsset.keys()].sort()).toEqual([...benchHaasIds].sort());
    expect(new Set(perAsset.values())).toEqual(new Set([4]));

    // What the server stored: each asset's last point and its latest message's time.
    await server.app.ingest!.flush();
    const expected = benchHaasIds.map((haasId) => {
      const mine = sent.filter((m) => m.haas_id === haasId);
      const lastPoint = mine.filter((m) => m.type === 'point').at(-1) as Extract<DeviceMessageInput, { type: 'point' }>;
      const latest = mine
        .map((m) => m.timestamp as string)
        .sort()
        .at(-1)!;
      return { haasId, lat: lastPoint.lat, lng: lastPoint.lng, heartbeatAt: new Date(latest) };
    });
    const stored = await server.database.db
      .select({ haasId: things.haasId, lat: things.lat, lng: things.lng, heartbeatAt: things.heartbeatAt })
      .from(things)
      .where(inArray(things.haasId, [...benchHaasIds, ...otherHaasIds]));
    const byHaasId = (a: { haasId: string }, b: { haasId: string }) => a.haasId.localeCompare(b.haasId);
    expect(stored.filter((row) => benchHaasIds.includes(row.haasId)).sort(byHaasId)).toEqual(expected.sort(byHaasId));
    expect(stored.filter((row) => otherHaasIds.includes(row.haasId))).toEqual(
      otherHaasIds.map((haasId) => expect.objectContaining({ haasId, lat: null, lng: null, heartbeatAt: null })),
    );

    // The API key it made for the run is revoked at the end.
    const keys = await server.database.db.select().from(apiKeys).where(eq(apiKeys.userId, userId));
    expect(keys).toHaveLength(1);
    expect(keys[0]!.revokedAt).not.toBeNull();
  });

  it('refuses a server that is not on this machine, before it signs in', async () => {
    const refusal = (host: string) =>
      `--url must be a loopback address (127.0.0.1, localhost or [::1]): the load driver sends to this machine only, not to ${host}`;
    await expect(runLoad(options({ url: 'http://example.com:8080' }))).rejects.toThrow(refusal('example.com:8080'));
    await expect(runLoad(options({ url: 'http://10.0.0.5' }))).rejects.toThrow(refusal('10.0.0.5'));
    expect(loopbackUrl('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080');
    expect(loopbackUrl('http://localhost:3000')).toBe('http://localhost:3000');
    expect(loopbackUrl('http://[::1]:3000')).toBe('http://[::1]:3000');
    expect(() => loopbackUrl('not a url')).toThrow('--url "not a url" is not a URL');
  });

  it('refuses a run with more assets than the organization has, or out of bounds', async () => {
    await expect(runLoad(options({ assets: 21 }))).rejects.toThrow(
      'Only 20 assets in Bench Fleet, 21 asked for. The server creates assets only through its seed: start it with SIM_ASSETS=21 or more on a fresh DATA_DIR, or ask for fewer.',
    );
    await expect(runLoad(options({ seconds: 601 }))).rejects.toThrow('--seconds must be a whole number from 1 to 600, got 601');
    await expect(runLoad(options({ rate: 0 }))).rejects.toThrow('--rate must be a whole number from 1 to 50000, got 0');
    await expect(runLoad(options({ maxInFlight: Number('x') }))).rejects.toThrow(
      '--in-flight must be a whole number from 1 to 64, got NaN',
    );
    await expect(runLoad(options({ org: 'Other Fleet' }))).rejects.toThrow(
      'No organization "Other Fleet" at or below Bench Fleet: an API key reports for its own organization and those below it (Bench Fleet)',
    );
  });
});
