/**
 * The live worker's poll revalidates the asset list (RFC 9110 §13): it sends back the ETag of its
 * last answer as If-None-Match, a 304 reuses that answer, a change brings the new list. Against the
 * real server listening on a port, with Node's fetch; the wrapper only records the statuses.
 */
import { THINGS_PAGE_MAX } from '../../src/domain/constants';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { things, thingTypes } from '../../server/db/schema';
import { LiveApi } from '../../src/workers/live-api';
import { createTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
let api: LiveApi;
const statuses: number[] = [];
beforeAll(async () => {
  server = await createTestServer();
  const org = await server.createOrg();
  const token = await server.signIn((await server.createUser({ org, role: 'ADMIN' })).email);
  const [type] = await server.database.db.select().from(thingTypes).where(eq(thingTypes.name, 'police'));
  await server.database.db
    .insert(things)
    .values({ organizationId: org.id, haasId: 'OPS-WORKER-1', thingTypeId: type!.id, lat: 30.2, lng: -97.7 });
  const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  api = new LiveApi({
    apiBase: base,
    token: () => token,
    orgIds: [],
    perPage: THINGS_PAGE_MAX,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    },
  });
}, 60_000);
afterAll(async () => server.close());

describe('the worker’s asset poll', () => {
  it('unchanged: 304 and the same page; after a change: 200 and the new data', async () => {
    const first = await api.thingsPage(1, null);
    expect(first.things.map((t) => t.haas_id)).toEqual(['OPS-WORKER-1']);
    const second = await api.thingsPage(1, null);
    expect(statuses).toEqual([200, 304]);
    expect(second).toEqual(first);

    server.clock.advance(1_000);
    await server.database.db
      .update(things)
      .set({ nickname: 'Unit 9', updatedAt: server.clock.now() })
      .where(eq(things.haasId, 'OPS-WORKER-1'));
    const third = await api.thingsPage(1, null);
    expect(statuses).toEqual([200, 304, 200]);
    expect(third.things[0]?.nickname).toBe('Unit 9');
  });

  it('a change to any asset is seen, not only to the newest: an older one written, one gone and another come', async () => {
    const [row] = await server.database.db.select().from(things).where(eq(things.haasId, 'OPS-WORKER-1'));
    const at = (ms: number) => new Date(server.clock.ms - ms);
    await server.database.db.insert(things).values([
      { organizationId: row!.organizationId, haasId: 'OPS-WORKER-2', thingTypeId: row!.thingTypeId, updatedAt: at(60_000) },
      { organizationId: row!.organizationId, haasId: 'OPS-WORKER-3', thingTypeId: row!.thingTypeId, updatedAt: at(50_000) },
    ]);
    await api.thingsPage(1, null);
    statuses.length = 0;
    await api.thingsPage(1, null);
    expect(statuses).toEqual([304]);
    // An asset written with a time that is not the list's newest.
    await server.database.db
      .update(things)
      .set({ nickname: 'Older', updatedAt: at(40_000) })
      .where(eq(things.haasId, 'OPS-WORKER-2'));
    expect((await api.thingsPage(1, null)).things.find((t) => t.haas_id === 'OPS-WORKER-2')?.nickname).toBe('Older');
    // One asset gone and another come with the same count and the same times.
    await server.database.db.delete(things).where(eq(things.haasId, 'OPS-WORKER-3'));
    await server.database.db
      .insert(things)
      .values({ organizationId: row!.organizationId, haasId: 'OPS-WORKER-4', thingTypeId: row!.thingTypeId, updatedAt: at(50_000) });
    const after = await api.thingsPage(1, null);
    expect(after.things.map((t) => t.haas_id).sort()).toEqual(['OPS-WORKER-1', 'OPS-WORKER-2', 'OPS-WORKER-4']);
    expect(statuses).toEqual([304, 200, 200]);
  });
});
