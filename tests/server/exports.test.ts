import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../src/domain/constants';
import { errorText } from '../../src/domain/errors';
import { exportWireSchema, fromExportWire } from '../../src/domain/export';
import { FILE_LINK_TTL_MS, signedLinksFor } from '../../server/auth/signed-links';
import {
  closures,
  exports,
  jobs,
  locationNotes,
  locations,
  locationThings,
  points,
  things,
  thingTypes,
  users,
} from '../../server/db/schema';
import { createFileStore } from '../../server/files';
import { writeCsv } from '../../server/jobs/export-csv';
import { startJobRunner, type JobRunner } from '../../server/jobs/runner';
import { badBodies, badIds, call, junk, refusedTokens, snapshot } from '../support/account-calls';
import { parseCsv } from '../support/parse-csv';
import { createTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
let runner: JobRunner;
let orgA: { id: string };
let orgB: { id: string };
let adminA: typeof users.$inferSelect;
let plainA: typeof users.$inferSelect;
const token = { adminA: '', plainA: '', mediaA: '', adminB: '', engineer: '' };
let refused: { revoked: string; expired: string };
let thing1: string;
let thing2: string;
let thing3: string;

/** The test clock's moment: 2026-11-22 12:00 UTC. The default range is the previous day. */
const DAY_START = Date.UTC(2026, 10, 21);
const DAY_END = Date.UTC(2026, 10, 22);
const at = (ms: number) => new Date(ms);

async function seedThing(orgId: string, haasId: string, nickname: string): Promise<string> {
  const [type] = await server.database.db.select().from(thingTypes).where(eq(thingTypes.name, 'police'));
  const [row] = await server.database.db
    .insert(things)
    .values({ organizationId: orgId, haasId, nickname, thingTypeId: type!.id, lat: 41.5, lng: -93.6 })
    .returning({ id: things.id });
  return row!.id;
}

const validBody = (overrides: Record<string, unknown> = {}) => ({
  export_type: 'point',
  title: 'Point Export 2026-11-21',
  export_start_time: at(DAY_START).toISOString(),
  export_end_time: at(DAY_END).toISOString(),
  use_utc: true,
  organization_id: orgA.id,
  thing_uuids: [thing1, thing2],
  ...overrides,
});

const exportsSnapshot = () => snapshot(server, exports, exports.id);
const jobsSnapshot = () => snapshot(server, jobs, jobs.id);

async function exportRow(id: string) {
  const [row] = await server.database.db.select().from(exports).where(eq(exports.id, id));
  return row!;
}

/**
 * Inserts an export directly (a given status and creator), as the list and delete tests need: a past
 * one ('completed') unless told, so seeded rows do not count as running exports (export-limits.test.ts).
 */
async function seedExport(values: Partial<typeof exports.$inferInsert> & { organizationId: string; requestedBy: string }) {
  const [row] = await server.database.db
    .insert(exports)
    .values({ exportType: 'thing', title: 'Seeded', requestedAt: server.clock.now(), status: 'completed', ...values })
    .returning();
  return row!;
}

/** POST → runOnce → the signed link → GET /files: the CSV's rows, header first. */
async function exportEndToEnd(
  body: Record<string, unknown>,
): Promise<{ rows: string[][]; id: string; contentType: string; disposition: string }> {
  const created = await call(server, 'POST', '/organization/export', token.adminA, body);
  expect(created.status).toBe(201);
  const wire = exportWireSchema.parse(created.json);
  expect(wire.status).toBe('requested');
  await runner.runOnce();
  const listed = await call(server, 'GET', `/organization/export?org_ids[]=${orgA.id}`, token.adminA);
  const done = exportWireSchema
    .array()
    .parse(listed.json)
    .find((e) => e.id === wire.id)!;
  expect(done.status).toBe('completed');
  expect(done.completed_at).toBe(server.clock.now().toISOString());
  const link = await call(server, 'GET', `/organization/export/${wire.id}?is_downloadable=true`, token.adminA);
  expect(link.status).toBe(200);
  const fileUrl = String(link.body.file_url);
  expect(fileUrl).toMatch(new RegExp(`^/files/${done.file_id!.replace('.', '\\.')}\\?expires=\\d+&signature=[\\w-]+$`));
  const file = await server.app.inject({ method: 'GET', url: fileUrl });
  expect(file.statusCode).toBe(200);
  return {
    rows: parseCsv(file.body),
    id: wire.id,
    contentType: String(file.headers['content-type']),
    disposition: String(file.headers['content-disposition']),
  };
}

beforeAll(async () => {
  server = await createTestServer();
  runner = startJobRunner(server.deps, { engine: server.database.engine });
  orgA = await server.createOrg({ name: 'Alpha County', timezone: 'America/Chicago' });
  orgB = await server.createOrg({ name: 'Bravo City' });
  adminA = await server.createUser({ org: orgA, role: 'ADMIN' });
  plainA = await server.createUser({ org: orgA, role: 'USER' });
  const mediaA = await server.createUser({ org: orgA, role: 'USER (Incidents / Events only)' });
  const adminB = await server.createUser({ org: orgB, role: 'ADMIN' });
  token.adminA = await server.signIn(adminA.email);
  token.plainA = await server.signIn(plainA.email);
  token.mediaA = await server.signIn(mediaA.email);
  token.adminB = await server.signIn(adminB.email);
  token.engineer = await server.signIn((await server.createUser({ org: orgB, role: 'ENGINEER' })).email);
  refused = await refusedTokens(server, adminA);
  thing1 = await seedThing(orgA.id, 'HA-A1', 'Engine 1');
  thing2 = await seedThing(orgA.id, 'HA-A2', 'Engine 2');
  thing3 = await seedThing(orgA.id, 'HA-A3', 'Engine 3');
  await seedThing(orgB.id, 'HA-B1', 'Bravo 1');
}, 120_000);
afterAll(async () => {
  await runner.stop();
  await server.close();
});

describe('part2 §7 authorization matrix: no, revoked or expired token → 401, nothing changed', () => {
  it.each([
    ['GET', '/organization/export'],
    ['POST', '/organization/export'],
    ['GET', '/organization/export/00000000-0000-4000-8000-000000000000?is_downloadable=true'],
    ['DELETE', '/organization/export/00000000-0000-4000-8000-000000000000'],
  ] as const)('%s %s', async (method, url) => {
    const before = await exportsSnapshot();
    for (const bearer of [null, refused.revoked, refused.expired]) {
      const answer = await call(server, method, url, bearer, method === 'POST' ? validBody() : undefined);
      expect(answer.status).toBe(401);
    }
    expect(await exportsSnapshot()).toBe(before);
  });
});

describe('part2 §7 GET /organization/export?org_ids[]', () => {
  it('lists the organization’s exports, newest first, in the export wire schema', async () => {
    const older = await seedExport({
      organizationId: orgA.id,
      requestedBy: plainA.id,
      requestedAt: at(DAY_START),
      status: 'errored',
      error: 'disk full',
    });
    const newer = await seedExport({ organizationId: orgA.id, requestedBy: adminA.id, requestedAt: at(DAY_END) });
    const answer = await call(server, 'GET', `/organization/export?org_ids[]=${orgA.id}`, token.plainA);
    expect(answer.status).toBe(200);
    const list = exportWireSchema.array().parse(answer.json);
    const ids = list.map((e) => e.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    // An errored export carries its reason and falls in the Error tab.
    const errored = (answer.json as Record<string, unknown>[]).find((e) => e.id === older.id)!;
    expect(errored.error).toBe('disk full');
    expect(fromExportWire(exportWireSchema.parse(errored)).tab).toBe('error');
  });

  it('part2 §8 another organization’s user asking for organization A → 404 Organization not found; its own list holds none of A’s', async () => {
    await seedExport({ organizationId: orgA.id, requestedBy: adminA.id });
    const asked = await call(server, 'GET', `/organization/export?org_ids[]=${orgA.id}`, token.adminB);
    expect(asked.status).toBe(404);
    expect(asked.body.message).toBe('Organization not found');
    expect(errorText('lists', { status: asked.status }).text).toBe('Organization not found');
    const own = await call(server, 'GET', '/organization/export', token.adminB);
    expect((own.json as { organization_id: string }[]).every((e) => e.organization_id === orgB.id)).toBe(true);
  });

  it('haas:manage sees any organization’s exports; an id that is no uuid or names no organization → 404 Organization not found', async () => {
    await seedExport({ organizationId: orgA.id, requestedBy: adminA.id });
    const any = await call(server, 'GET', `/organization/export?org_ids[]=${orgA.id}`, token.engineer);
    expect(exportWireSchema.array().parse(any.json).length).toBeGreaterThan(0);
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const unknown = await call(server, 'GET', `/organization/export?org_ids[]=${id}`, token.engineer);
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe('Organization not found');
    }
  });

  it('a user lacking every export permission (Media) → 403', async () => {
    const answer = await call(server, 'GET', `/organization/export?org_ids[]=${orgA.id}`, token.mediaA);
    expect(answer.status).toBe(403);
  });
});

describe('part2 §7 POST /organization/export', () => {
  // The exports a test queues run after it, so the next test starts under the running-exports limit.
  afterEach(async () => {
    await runner.runOnce();
  });

  it('creates the export as requested and queues its job', async () => {
    const answer = await call(server, 'POST', '/organization/export', token.plainA, validBody({ title: '  Night shift  ' }));
    expect(answer.status).toBe(201);
    const wire = exportWireSchema.parse(answer.json);
    expect(wire).toMatchObject({
      organization_id: orgA.id,
      requested_by: plainA.id,
      export_type: 'point',
      title: 'Night shift',
      export_start_time: at(DAY_START).toISOString(),
      export_end_time: at(DAY_END).toISOString(),
      requested_at: server.clock.now().toISOString(),
      status: 'requested',
      file_id: null,
    });
    const row = await exportRow(wire.id);
    expect(row.options).toEqual({ thing_uuids: [thing1, thing2] });
    const queued = await server.database.db.select().from(jobs).where(eq(jobs.kind, 'export'));
    expect(queued.some((job) => job.payload.exportId === wire.id && job.status === 'queued')).toBe(true);
  });

  it('keeps include_no_thing_il for incidents and closures_to_include for closures', async () => {
    const incident = await call(
      server,
      'POST',
      '/organization/export',
      token.adminA,
      validBody({ export_type: 'incident', thing_uuids: [], include_no_thing_il: true }),
    );
    expect(incident.status).toBe(201);
    expect((await exportRow(String(incident.body.id))).options).toEqual({ thing_uuids: [], include_no_thing_il: true });
    const closure = await call(
      server,
      'POST',
      '/organization/export',
      token.adminA,
      validBody({ export_type: 'closure', thing_uuids: [], closures_to_include: ['feed', 'feed'] }),
    );
    expect(closure.status).toBe(201);
    expect((await exportRow(String(closure.body.id))).options).toEqual({ thing_uuids: [], closures_to_include: ['feed'] });
  });

  it('an asset export needs no range', async () => {
    const answer = await call(
      server,
      'POST',
      '/organization/export',
      token.adminA,
      validBody({ export_type: 'thing', export_start_time: null, export_end_time: null, thing_uuids: [] }),
    );
    expect(answer.status).toBe(201);
  });

  it.each([
    ['a range over 31 days', { export_start_time: at(DAY_END - 32 * DAY_MS).toISOString() }, 'export_end_time', 'Exceeds max time range'],
    ['an end beyond now', { export_end_time: at(DAY_END + DAY_MS).toISOString() }, 'export_end_time', 'Must be past date'],
    ['equal start and end', { export_start_time: at(DAY_END).toISOString() }, 'export_end_time', 'Dates must be different'],
    [
      'an end before the start',
      { export_start_time: at(DAY_END).toISOString(), export_end_time: at(DAY_START).toISOString() },
      'export_end_time',
      'End time must be after Start time',
    ],
    ['a point export with no asset', { thing_uuids: [] }, 'thing_uuids', 'Must select at least 1 Asset'],
    [
      'a closure export with no asset and no closure type',
      { export_type: 'closure', thing_uuids: [], closures_to_include: [] },
      'closures_to_include',
      'Must include at least 1 Closure type or Asset',
    ],
    ['an incident export with no range', { export_type: 'incident', export_start_time: null }, 'export_start_time', 'Required'],
    ['a blank title', { title: '   ' }, 'title', 'Required'],
    ['a time that is no time', { export_start_time: 'yesterday' }, 'export_start_time', 'must be an ISO time'],
  ])('part2 §5 %s → 422 naming %s: %s, nothing created', async (_case, overrides, field, message) => {
    const before = await exportsSnapshot();
    const answer = await call(server, 'POST', '/organization/export', token.adminA, validBody(overrides));
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe(`${field}: ${message}`);
    expect((answer.body.fields as Record<string, string>)[field]).toBe(message);
    expect(await exportsSnapshot()).toBe(before);
  });

  it('another organization’s asset → 422 Asset not found; nothing created', async () => {
    const [bravo] = await server.database.db.select().from(things).where(eq(things.haasId, 'HA-B1'));
    const before = await exportsSnapshot();
    const answer = await call(server, 'POST', '/organization/export', token.adminA, validBody({ thing_uuids: [thing1, bravo!.id] }));
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe('thing_uuids: Asset not found');
    expect(await exportsSnapshot()).toBe(before);
  });

  it('part2 §8 a user of another organization → 404 Organization not found; nothing created', async () => {
    const [before, beforeJobs] = [await exportsSnapshot(), await jobsSnapshot()];
    const answer = await call(server, 'POST', '/organization/export', token.adminB, validBody({ thing_uuids: [], export_type: 'thing' }));
    expect(answer.status).toBe(404);
    expect(errorText('lists', { status: answer.status, message: answer.body.message }).text).toBe('Organization not found');
    expect(await exportsSnapshot()).toBe(before);
    expect(await jobsSnapshot()).toBe(beforeJobs);
  });

  it('a user lacking export create (Media) → 403; nothing created', async () => {
    const before = await exportsSnapshot();
    const answer = await call(server, 'POST', '/organization/export', token.mediaA, validBody());
    expect(answer.status).toBe(403);
    expect(await exportsSnapshot()).toBe(before);
  });

  it('property: arbitrary or near-valid bodies never give a 5xx and never change a row', async () => {
    const [before, beforeJobs] = [await exportsSnapshot(), await jobsSnapshot()];
    const bodies = badBodies(validBody(), {
      export_type: fc.oneof(junk, fc.constantFrom('asset', 'INCIDENT', '')),
      title: fc.oneof(
        junk.filter((v) => typeof v !== 'string'),
        fc.constant(''),
        fc.string({ minLength: 201, maxLength: 300 }),
      ),
      export_start_time: fc.oneof(
        junk.filter((v) => typeof v !== 'string' && v !== null),
        fc.constant('not a time'),
        fc.constant(at(DAY_END - 40 * DAY_MS).toISOString()),
      ),
      export_end_time: fc.oneof(
        junk.filter((v) => typeof v !== 'string'),
        fc.constant(at(DAY_END + 5 * DAY_MS).toISOString()),
      ),
      use_utc: junk.filter((v) => typeof v !== 'boolean'),
      organization_id: fc.oneof(junk, fc.uuid()),
      thing_uuids: fc.oneof(junk, fc.constant([]), fc.array(fc.uuid(), { minLength: 1, maxLength: 3 })),
      // An empty list is a valid 'nothing extra' for any type, so it is not bad input.
      closures_to_include: fc.oneof(
        junk.filter((v) => v !== null && !(Array.isArray(v) && v.length === 0)),
        fc.constant(['automated']),
      ),
    });
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const answer = await call(server, 'POST', '/organization/export', token.adminA, body);
        expect(answer.status).toBeLessThan(500);
        expect(answer.status).not.toBe(201);
      }),
      { numRuns: 100 },
    );
    expect(await exportsSnapshot()).toBe(before);
    expect(await jobsSnapshot()).toBe(beforeJobs);
  });
});

describe('part2 §7 DELETE /organization/export/{id}', () => {
  it('the creator deletes (soft): the row stays with deleted_at, the list no longer shows it', async () => {
    const exp = await seedExport({ organizationId: orgA.id, requestedBy: plainA.id });
    const answer = await call(server, 'DELETE', `/organization/export/${exp.id}`, token.plainA);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ id: exp.id });
    expect((await exportRow(exp.id)).deletedAt?.toISOString()).toBe(server.clock.now().toISOString());
    const list = await call(server, 'GET', `/organization/export?org_ids[]=${orgA.id}`, token.plainA);
    expect((list.json as { id: string }[]).map((e) => e.id)).not.toContain(exp.id);
    // Deleted is deleted: a second delete finds nothing.
    expect((await call(server, 'DELETE', `/organization/export/${exp.id}`, token.plainA)).status).toBe(404);
  });

  it('part2 §8 anyone else, even an admin of the same organization → 403 not_creator → Only the export creator can delete', async () => {
    const exp = await seedExport({ organizationId: orgA.id, requestedBy: plainA.id });
    const before = await exportsSnapshot();
    const answer = await call(server, 'DELETE', `/organization/export/${exp.id}`, token.adminA);
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe('not_creator');
    expect(errorText('exportDelete', { status: answer.status, code: answer.body.error, message: answer.body.message }).text).toBe(
      'Only the export creator can delete',
    );
    expect(await exportsSnapshot()).toBe(before);
  });

  it("a deleted user's export: the list says so, and the organization's administrator deletes it; an Admin still may not", async () => {
    const leaver = await server.createUser({ org: orgA, role: 'USER' });
    const orgAdmin = await server.signIn((await server.createUser({ org: orgA, role: 'MANUFACTURER ADMIN' })).email);
    const exp = await seedExport({ organizationId: orgA.id, requestedBy: leaver.id });
    const listed = async () =>
      (
        (await call(server, 'GET', `/organization/export?org_ids[]=${orgA.id}`, orgAdmin)).json as {
          id: string;
          requested_by_deleted: boolean;
        }[]
      ).find((e) => e.id === exp.id);
    expect((await listed())?.requested_by_deleted).toBe(false);
    // While its requester's account lives, the export stays theirs.
    expect((await call(server, 'DELETE', `/organization/export/${exp.id}`, orgAdmin)).status).toBe(403);
    expect((await call(server, 'DELETE', `/users/${leaver.id}`, orgAdmin)).status).toBe(200);
    expect((await listed())?.requested_by_deleted).toBe(true);
    expect((await call(server, 'DELETE', `/organization/export/${exp.id}`, token.adminA)).status).toBe(403);
    expect((await call(server, 'DELETE', `/organization/export/${exp.id}`, orgAdmin)).body).toEqual({ id: exp.id });
    expect((await exportRow(exp.id)).deletedAt).not.toBeNull();
  });

  it('a user of another organization → 404; a user lacking the permission → 403; nothing changed', async () => {
    const exp = await seedExport({ organizationId: orgA.id, requestedBy: adminA.id });
    const before = await exportsSnapshot();
    expect((await call(server, 'DELETE', `/organization/export/${exp.id}`, token.adminB)).status).toBe(404);
    expect((await call(server, 'DELETE', `/organization/export/${exp.id}`, token.mediaA)).status).toBe(403);
    expect(await exportsSnapshot()).toBe(before);
  });

  it('property: arbitrary ids never give a 5xx and never change a row', async () => {
    const before = await exportsSnapshot();
    await fc.assert(
      fc.asyncProperty(badIds, async (id) => {
        const answer = await call(server, 'DELETE', `/organization/export/${encodeURIComponent(id)}`, token.adminA);
        expect(answer.status).toBeLessThan(500);
        expect(answer.status).not.toBe(200);
      }),
      { numRuns: 40 },
    );
    expect(await exportsSnapshot()).toBe(before);
  });
});

describe('part2 §7 export file link (is_downloadable=true) and GET /files/{fileId}', () => {
  it('end to end, point export: requested → completed, a signed link, a CSV with its header and the points in range', async () => {
    const base = DAY_START;
    await server.database.db.insert(points).values([
      { thingId: thing1, lat: 41.1, lng: -93.1, speed: 10, course: 90, accuracy: 5, timestamp: at(base + 1 * HOUR_MS) },
      { thingId: thing1, lat: 41.2, lng: -93.2, speed: 20, course: 90, accuracy: 5, timestamp: at(base + 2 * HOUR_MS) },
      { thingId: thing1, lat: 41.3, lng: -93.3, speed: 0, course: 0, accuracy: 5, timestamp: at(base + 3 * HOUR_MS) },
      { thingId: thing2, lat: 42.1, lng: -94.1, speed: 5, course: 180, accuracy: 9, timestamp: at(base + 4 * HOUR_MS) },
      { thingId: thing2, lat: 42.2, lng: -94.2, speed: 6, course: 180, accuracy: 9, timestamp: at(base + 5 * HOUR_MS) },
      // outside the range, or of an asset not asked for
      { thingId: thing1, lat: 40, lng: -90, timestamp: at(base - MINUTE_MS) },
      { thingId: thing1, lat: 40, lng: -90, timestamp: at(DAY_END) },
      { thingId: thing3, lat: 40, lng: -90, timestamp: at(base + HOUR_MS) },
    ]);
    const { rows, contentType, disposition } = await exportEndToEnd(validBody({ title: 'Point Export 2026-11-21' }));
    expect(contentType).toMatch(/^text\/csv/);
    expect(disposition).toContain('attachment; filename="Point Export 2026-11-21.csv"');
    expect(rows[0]).toEqual(['asset_id', 'asset_name', 'timestamp', 'lat', 'lng', 'speed', 'course', 'accuracy', 'run_id']);
    expect(rows).toHaveLength(1 + 5);
    expect(rows.slice(1).map((r) => [r[0], r[2]])).toEqual([
      ['HA-A1', '2026-11-21T01:00:00Z'],
      ['HA-A1', '2026-11-21T02:00:00Z'],
      ['HA-A1', '2026-11-21T03:00:00Z'],
      ['HA-A2', '2026-11-21T04:00:00Z'],
      ['HA-A2', '2026-11-21T05:00:00Z'],
    ]);
    expect(rows[1]).toEqual(['HA-A1', 'Engine 1', '2026-11-21T01:00:00Z', '41.1', '-93.1', '10', '90', '5', '']);
  });

  it('use_utc false writes the organization’s time zone with its offset', async () => {
    const { rows } = await exportEndToEnd(validBody({ use_utc: false, thing_uuids: [thing2] }));
    expect(rows.slice(1).map((r) => r[2])).toEqual(['2026-11-20T22:00:00-06:00', '2026-11-20T23:00:00-06:00']);
  });

  it('incident export: events that started in the range, with the chosen assets or none', async () => {
    const db = server.database.db;
    const [withAsset, noAsset] = await db
      .insert(locations)
      .values([
        {
          organizationId: orgA.id,
          displayName: 'Crash on I-35',
          lat: 41.6,
          lng: -93.6,
          startTime: at(DAY_START + HOUR_MS),
          street: 'I-35, Ames',
        },
        { organizationId: orgA.id, displayName: 'Debris', lat: 41.7, lng: -93.7, startTime: at(DAY_START + 2 * HOUR_MS) },
        { organizationId: orgA.id, displayName: 'Too early', lat: 41.7, lng: -93.7, startTime: at(DAY_START - HOUR_MS) },
        { organizationId: orgB.id, displayName: 'Other org', lat: 41.7, lng: -93.7, startTime: at(DAY_START + HOUR_MS) },
      ])
      .returning();
    await db.insert(locationThings).values({ locationId: withAsset!.id, thingId: thing1, startTime: at(DAY_START + HOUR_MS) });
    // docs/decisions/spec.md "Incident notes and acknowledgement": the acknowledgement and the notes come along.
    await db
      .update(locations)
      .set({ acknowledgedAt: at(DAY_START + HOUR_MS + MINUTE_MS), acknowledgedBy: adminA.id })
      .where(eq(locations.id, withAsset!.id));
    await db.insert(locationNotes).values([
      { locationId: withAsset!.id, authorId: adminA.id, text: '=Lane 2 blocked', createdAt: at(DAY_START + HOUR_MS + 2 * MINUTE_MS) },
      { locationId: withAsset!.id, authorId: plainA.id, text: 'Tow on the way', createdAt: at(DAY_START + HOUR_MS + 3 * MINUTE_MS) },
    ]);
    const all = await exportEndToEnd(validBody({ export_type: 'incident', thing_uuids: [], include_no_thing_il: true }));
    expect(all.rows[0]).toEqual([
      'incident_id',
      'external_id',
      'name',
      'street',
      'lat',
      'lng',
      'start_time',
      'end_time',
      'is_active',
      'alert_message',
      'asset_ids',
      'asset_names',
      'acknowledged_at',
      'acknowledged_by',
      'notes_count',
      'notes',
    ]);
    expect(all.rows.slice(1).map((r) => [r[0], r[2], r[10]])).toEqual([
      [withAsset!.id, 'Crash on I-35', 'HA-A1'],
      [noAsset!.id, 'Debris', ''],
    ]);
    const name = (user: typeof users.$inferSelect) => `${user.firstname} ${user.lastname}`;
    expect(all.rows[1]!.slice(12)).toEqual([
      '2026-11-21T01:01:00Z',
      name(adminA),
      '2',
      `2026-11-21T01:02:00Z ${name(adminA)}: =Lane 2 blocked\n2026-11-21T01:03:00Z ${name(plainA)}: Tow on the way`,
    ]);
    expect(all.rows[2]!.slice(12)).toEqual(['', '', '0', '']);
    const chosen = await exportEndToEnd(validBody({ export_type: 'incident', thing_uuids: [thing2], include_no_thing_il: false }));
    expect(chosen.rows).toHaveLength(1);
  });

  it('asset export: the organization’s assets', async () => {
    const { rows } = await exportEndToEnd(
      validBody({ export_type: 'thing', thing_uuids: [], export_start_time: null, export_end_time: null }),
    );
    expect(rows[0]!.slice(0, 4)).toEqual(['asset_id', 'name', 'type', 'subtype']);
    expect(rows.slice(1).map((r) => [r[0], r[1], r[2]])).toEqual([
      ['HA-A1', 'Engine 1', 'Police'],
      ['HA-A2', 'Engine 2', 'Police'],
      ['HA-A3', 'Engine 3', 'Police'],
    ]);
  });

  it('closure export: the chosen assets’ closures and the included closure types active in the range', async () => {
    const db = server.database.db;
    const inRange = { startTime: at(DAY_START + HOUR_MS), endTime: at(DAY_END + DAY_MS) };
    const [manual, automated] = await db
      .insert(closures)
      .values([
        { organizationId: orgA.id, closureType: 'manual', description: 'Bridge work', impactedLanes: [1, 2], ...inRange },
        { organizationId: orgA.id, closureType: 'automated', description: 'Plow escort', thingId: thing1, ...inRange },
        { organizationId: orgA.id, closureType: 'feed', description: 'Feed closure', externalId: 'WZ-1', ...inRange },
        {
          organizationId: orgA.id,
          closureType: 'manual',
          description: 'Ended before',
          startTime: at(DAY_START - 3 * DAY_MS),
          endTime: at(DAY_START - 2 * DAY_MS),
        },
      ])
      .returning();
    const { rows } = await exportEndToEnd(validBody({ export_type: 'closure', thing_uuids: [thing1], closures_to_include: ['manual'] }));
    expect(rows[0]![0]).toBe('closure_id');
    const byId = new Map(rows.slice(1).map((r) => [r[0], r]));
    expect([...byId.keys()].sort()).toEqual([manual!.id, automated!.id].sort());
    expect(byId.get(manual!.id)![12]).toBe('1;2');
    expect(byId.get(automated!.id)![4]).toBe('HA-A1');
  });

  it('a link before completion → 404 File not found; another organization → 404; Media → 403', async () => {
    const exp = await seedExport({ organizationId: orgA.id, requestedBy: adminA.id, status: 'in_progress' });
    const pending = await call(server, 'GET', `/organization/export/${exp.id}?is_downloadable=true`, token.adminA);
    expect(pending.status).toBe(404);
    expect(errorText('reportFile', { status: pending.status, message: pending.body.message }).text).toBe('File not found');
    expect(pending.body.message).toBe('File not found');
    expect((await call(server, 'GET', `/organization/export/${exp.id}?is_downloadable=true`, token.adminB)).status).toBe(404);
    expect((await call(server, 'GET', `/organization/export/${exp.id}?is_downloadable=true`, token.mediaA)).status).toBe(403);
    // Without is_downloadable the same path answers the export itself.
    const plain = await call(server, 'GET', `/organization/export/${exp.id}`, token.adminA);
    expect(exportWireSchema.parse(plain.json).status).toBe('in_progress');
  });

  it('a tampered, missing or expired signature → 403; a valid link to a removed file → 404; no bearer needed', async () => {
    const { id } = await exportEndToEnd(
      validBody({ export_type: 'thing', thing_uuids: [thing3], export_start_time: null, export_end_time: null }),
    );
    const link = String((await call(server, 'GET', `/organization/export/${id}?is_downloadable=true`, token.adminA)).body.file_url);
    const url = new URL(link, 'http://x');
    const signature = url.searchParams.get('signature')!;
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    const fileId = url.pathname.split('/').pop()!;
    const expires = url.searchParams.get('expires')!;
    for (const bad of [
      `/files/${fileId}?expires=${expires}&signature=${flipped}`,
      `/files/${fileId}?expires=${Number(expires) + 3600}&signature=${signature}`,
      `/files/${fileId}?expires=${expires}`,
      `/files/${fileId}`,
    ]) {
      const answer = await server.app.inject({ method: 'GET', url: bad });
      expect(answer.statusCode).toBe(403);
    }
    // Still valid just before the five minutes are up, refused after.
    server.clock.advance(FILE_LINK_TTL_MS - MINUTE_MS);
    expect((await server.app.inject({ method: 'GET', url: link })).statusCode).toBe(200);
    server.clock.advance(2 * MINUTE_MS);
    const expired = await server.app.inject({ method: 'GET', url: link });
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toMatchObject({ error: 'link_expired' });
    // A fresh link to a file that is gone from the disk.
    const fresh = String((await call(server, 'GET', `/organization/export/${id}?is_downloadable=true`, token.adminA)).body.file_url);
    await createFileStore(server.dataDir).remove(fileId);
    expect((await server.app.inject({ method: 'GET', url: fresh })).statusCode).toBe(404);
  });

  it('a correctly signed id that is not a file id never leaves the files folder → 404', async () => {
    fs.writeFileSync(path.join(server.dataDir, 'secret.csv'), 'secret');
    const links = signedLinksFor(server.deps.config);
    for (const id of ['../secret.csv', '..%2Fsecret.csv', 'secret.csv', '../link-secret']) {
      const signed = links.sign(decodeURIComponent(id), server.clock.now());
      const answer = await server.app.inject({ method: 'GET', url: signed });
      expect([403, 404]).toContain(answer.statusCode);
      expect(answer.body).not.toContain('secret');
    }
  });
});

describe('download links across processes: FILE_LINK_SECRET', () => {
  const secret = 'a-shared-link-secret-of-32-chars-or-more';

  it('a link signed by another process with the same secret opens the file; with its own secret it is refused', async () => {
    const shared = await createTestServer({ env: { FILE_LINK_SECRET: secret } });
    const own = await createTestServer();
    try {
      // The file a job wrote to the shared store (here: the serving process's folder).
      const store = createFileStore(shared.dataDir);
      const fileId = store.newId('csv');
      await store.write(fileId, 'thing_id\nHA-1\n');
      // Signed by a process with another data folder but the same configured secret.
      const other = signedLinksFor({ dataDir: own.dataDir, fileLinkSecret: secret }).sign(fileId, shared.clock.now());
      const opened = await shared.app.inject({ method: 'GET', url: other });
      expect(opened.statusCode).toBe(200);
      expect(opened.body).toBe('thing_id\nHA-1\n');
      // Signed with a process's own generated secret (no FILE_LINK_SECRET): refused here.
      const foreign = signedLinksFor(own.deps.config).sign(fileId, shared.clock.now());
      expect((await shared.app.inject({ method: 'GET', url: foreign })).statusCode).toBe(403);
    } finally {
      await shared.close();
      await own.close();
    }
  });
});

describe('part2 §4 export progress: the job reports rows written while it runs', () => {
  it('writeCsv reports the rows written as it goes and once at the end', async () => {
    const store = createFileStore(server.deps.config.dataDir);
    const seen: number[] = [];
    async function* rows() {
      for (let n = 0; n < 50; n += 1) yield [n, `row ${n}`];
    }
    const written = await writeCsv(store, store.newId('csv'), { columns: ['n', 'text'], rows: rows() }, 1000, {
      everyMs: 0,
      report: async (count) => {
        seen.push(count);
      },
    });
    expect(written).toBe(50);
    expect(seen.slice(0, 3)).toEqual([1, 2, 3]);
    expect(seen.at(-1)).toBe(50);
  });

  it('a point export counts its rows, then its list entry shows rows written moving up to the total, then Completed', async () => {
    const thing = await seedThing(orgA.id, 'HA-PROG', 'Progress 1');
    const total = 6_000;
    for (let start = 0; start < total; start += 2_000) {
      await server.database.db.insert(points).values(
        Array.from({ length: 2_000 }, (_, i) => ({
          thingId: thing,
          lat: 41,
          lng: -93,
          timestamp: at(DAY_START + (start + i) * 5_000),
        })),
      );
    }
    const created = await call(server, 'POST', '/organization/export', token.adminA, validBody({ thing_uuids: [thing] }));
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    const waiting = fromExportWire(exportWireSchema.parse(created.json));
    expect([waiting.status, waiting.rowsWritten, waiting.rowsTotal, waiting.startedAt]).toEqual(['requested', 0, null, null]);

    const slow = startJobRunner({ ...server.deps, exportProgressEveryMs: 1 }, { engine: server.database.engine });
    const run = slow.runOnce();
    let finished = false;
    void run.finally(() => (finished = true)).catch(() => undefined);
    const seen: { status: string; written: number; total: number | null }[] = [];
    while (!finished && seen.length < 2_000) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      const listed = await call(server, 'GET', `/organization/export?org_ids[]=${orgA.id}`, token.adminA);
      const mine = exportWireSchema
        .array()
        .parse(listed.json)
        .map(fromExportWire)
        .find((e) => e.id === id)!;
      seen.push({ status: mine.status, written: mine.rowsWritten, total: mine.rowsTotal });
    }
    await run;
    await slow.stop();
    const running = seen.filter((s) => s.status === 'in_progress' && s.total === total && s.written > 0 && s.written < total);
    expect(running.length).toBeGreaterThan(0);
    const counts = seen.filter((s) => s.status === 'in_progress').map((s) => s.written);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    const done = await exportRow(id);
    expect([done.status, done.rowsWritten, done.rowsTotal]).toEqual(['completed', total, total]);
    expect(done.startedAt?.toISOString()).toBe(server.clock.now().toISOString());
  }, 120_000);

  it('points that arrive while the export runs are written too, and the total grows with them: written never passes the total', async () => {
    const thing = await seedThing(orgA.id, 'HA-GROW', 'Growing 1');
    const before = 8_000;
    const added = 1_000;
    const pointsFrom = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => ({ thingId: thing, lat: 41, lng: -93, timestamp: at(DAY_START + (from + i) * 5_000) }));
    for (let start = 0; start < before; start += 2_000) await server.database.db.insert(points).values(pointsFrom(start, 2_000));
    const created = await call(server, 'POST', '/organization/export', token.adminA, validBody({ thing_uuids: [thing] }));
    const id = String(created.body.id);
    const slow = startJobRunner({ ...server.deps, exportProgressEveryMs: 1 }, { engine: server.database.engine });
    const run = slow.runOnce();
    // Once the total is counted, more points of the window arrive (later in the day: read last).
    let row = await exportRow(id);
    while (row.rowsTotal === null && row.status !== 'completed') row = await exportRow(id);
    expect(row.status).toBe('in_progress');
    await server.database.db.insert(points).values(pointsFrom(before, added));
    const seen: { written: number; total: number | null }[] = [];
    let finished = false;
    void run.finally(() => (finished = true)).catch(() => undefined);
    while (!finished) {
      const now = await exportRow(id);
      seen.push({ written: now.rowsWritten, total: now.rowsTotal });
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await run;
    await slow.stop();
    expect(seen.filter((s) => s.total !== null && s.written > s.total)).toEqual([]);
    const done = await exportRow(id);
    expect([done.status, done.rowsWritten, done.rowsTotal]).toEqual(['completed', before + added, before + added]);
  }, 120_000);
});
