import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closureStatus, closureWireSchema, fromClosureWire, quickTogglePayload, toClosurePayload } from '../../src/domain/closure';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../src/domain/constants';
import { errorText, type ErrorContext } from '../../src/domain/errors';
import { incrementalAnswerSchema } from '../../src/domain/incremental';
import { closures, roles, things, thingTypes, users } from '../../server/db/schema';
import { MOBILE_CLIENT_HEADER } from '../../server/http/closures/schema';
import { isUniqueViolation } from '../../server/core/errors';
import { badBodies, badIds, call, junk, refusedTokens, snapshot, type Answer, type Method } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
let orgA: { id: string; name: string };
let orgB: { id: string; name: string };
/** A WZDx organization: direction is required. */
let orgW: { id: string; name: string };
const token = { adminA: '', userA: '', mediaA: '', adminB: '', adminW: '', mobileA: '', engineer: '' };
let refused: { revoked: string; expired: string };
let thingA: typeof things.$inferSelect;
let thingB: typeof things.$inferSelect;
let haasCounter = 0;

async function insertThing(organizationId: string, values: Partial<typeof things.$inferInsert> = {}) {
  const [type] = await server.database.db.select().from(thingTypes).where(eq(thingTypes.name, 'arrow_board'));
  const [thing] = await server.database.db
    .insert(things)
    .values({ organizationId, haasId: `cl-${++haasCounter}`, thingTypeId: type!.id, ...values })
    .returning();
  return thing!;
}

beforeAll(async () => {
  server = await createTestServer();
  orgA = await server.createOrg({ name: 'Alpha County' });
  orgB = await server.createOrg({ name: 'Bravo City' });
  orgW = await server.createOrg({ name: 'Whiskey DOT', isWzdxOrg: true });
  const adminA = await server.createUser({ org: orgA, role: 'ADMIN' });
  const userA = await server.createUser({ org: orgA, role: 'USER' });
  const mediaA = await server.createUser({ org: orgA, role: 'USER (Incidents / Events only)' });
  const adminB = await server.createUser({ org: orgB, role: 'ADMIN' });
  const adminW = await server.createUser({ org: orgW, role: 'ADMIN' });
  const engineer = await server.createUser({ org: orgB, role: 'ENGINEER' });
  // The phone's permissions only: mobile closure create and update.
  const [mobileRole] = await server.database.db
    .insert(roles)
    .values({ name: 'MOBILE CLOSER', permissions: ['closure:read', 'mobile:closure:create', 'mobile:closure:update'] })
    .returning();
  const mobileA = await server.createUser({ org: orgA, role: 'USER' });
  await server.database.db.update(users).set({ roleId: mobileRole!.id }).where(eq(users.id, mobileA.id));
  for (const [key, user] of Object.entries({ adminA, userA, mediaA, adminB, adminW, mobileA, engineer })) {
    token[key as keyof typeof token] = await server.signIn(user.email);
  }
  refused = await refusedTokens(server, adminA);
  thingA = await insertThing(orgA.id, { nickname: 'Arrow 7', heartbeatAt: new Date(server.clock.ms - HOUR_MS), registryNumber: 'R-7' });
  thingB = await insertThing(orgB.id);
});
afterAll(() => server.close());

const now = () => server.clock.ms;
const iso = (ms: number) => new Date(ms).toISOString();
const closuresSnapshot = () => snapshot(server, closures, closures.id);
const shown = (context: ErrorContext, answer: Answer) =>
  errorText(context, { status: answer.status, message: answer.body.message ?? null, code: answer.body.error ?? null }).text;
let wzdxCounter = 0;

function closureBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    organization_id: orgA.id,
    closure_type: 'manual',
    thing_id: null,
    is_dashboard_managed: true,
    is_active: true,
    is_in_service: true,
    description: 'Bridge deck repair',
    alert_message: 'Right lane closed',
    direction: 'N',
    street_start: 'Main St',
    street_end: '5th Ave',
    user_route: [
      { lat: 41.88, lng: -87.63 },
      { lat: 41.89, lng: -87.63 },
    ],
    calculated_route: [
      { lat: 41.88, lng: -87.63 },
      { lat: 41.885, lng: -87.6301 },
      { lat: 41.89, lng: -87.63 },
    ],
    impacted_lanes: [2, 1],
    start_time: null,
    end_time: iso(now() + 7 * DAY_MS),
    external_id: null,
    location_method: null,
    vehicle_impact: null,
    group_id: null,
    ...overrides,
  };
}

const publishing = () => ({
  external_id: `wz-${++wzdxCounter}`,
  location_method: 'channel-device-method',
  vehicle_impact: 'some-lanes-closed',
  group_id: 'bridge-program',
});

async function createClosure(overrides: Record<string, unknown> = {}, bearer = token.adminA) {
  const answer = await call(server, 'POST', '/organization/closure', bearer, closureBody(overrides));
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return closureWireSchema.parse(answer.json);
}

async function closureRow(id: string) {
  const [row] = await server.database.db.select().from(closures).where(eq(closures.id, id));
  return row!;
}

/** A closure read from a WZDx feed: Lightbar does not manage it. */
async function insertFeedClosure() {
  const [row] = await server.database.db
    .insert(closures)
    .values({
      organizationId: orgA.id,
      closureType: 'feed',
      description: 'I-90 night work (state feed)',
      externalId: `state-feed-${++wzdxCounter}`,
      isDashboardManaged: false,
      isActive: true,
      userRoute: [
        { lat: 41.9, lng: -87.7 },
        { lat: 41.91, lng: -87.7 },
      ],
      // The test clock's time, not the database's: a real-time default lies in the test clock's
      // future after noon UTC on the clock's day and would surface in every incremental read.
      createdAt: server.clock.now(),
      updatedAt: server.clock.now(),
    })
    .returning();
  return row!;
}

describe('authorization matrix: no, revoked or expired token → 401 for every call', () => {
  const id = '00000000-0000-4000-8000-000000000000';
  const calls: [Method, string][] = [
    ['GET', '/organization/closure'],
    ['GET', `/organization/closure/${id}`],
    ['POST', '/organization/closure'],
    ['PUT', `/organization/closure/${id}`],
    ['DELETE', `/organization/closure/${id}`],
  ];
  it.each(calls)('%s %s', async (method, url) => {
    const before = await closuresSnapshot();
    const body = method === 'POST' || method === 'PUT' ? closureBody() : undefined;
    for (const bearer of [null, 'not-a-token', refused.revoked, refused.expired]) {
      expect((await call(server, method, url, bearer, body)).status).toBe(401);
    }
    expect(await closuresSnapshot()).toBe(before);
  });
});

describe('part2 §7 POST /organization/closure', () => {
  it('creates an active manual closure: it starts now, is dashboard managed, and parses with the closure wire', async () => {
    const wire = await createClosure({ is_dashboard_managed: false });
    expect(wire).toMatchObject({
      closure_type: 'manual',
      is_active: true,
      is_dashboard_managed: true,
      start_time: iso(now()),
      last_start_time: iso(now()),
      end_time: iso(now() + 7 * DAY_MS),
      impacted_lanes: [1, 2],
      organization: { id: orgA.id, name: 'Alpha County' },
      external_id: null,
    });
    const closure = fromClosureWire(wire, now());
    expect(closure).toMatchObject({ status: 'active', secondaryDisplayName: 'Manual Closure', isPublishOn: false, direction: 'N' });
    expect(closure.routePath).toHaveLength(3);
    expect((await closureRow(wire.id)).isDashboardManaged).toBe(true);
  });

  it('part2 §4 a scheduled closure (start in the future) stays inactive', async () => {
    const start = now() + 2 * DAY_MS;
    const wire = await createClosure({ is_active: false, start_time: iso(start), end_time: iso(start + DAY_MS) });
    expect(wire).toMatchObject({ is_active: false, start_time: iso(start), last_start_time: null });
    expect(fromClosureWire(wire, now()).status).toBe('standby');
  });

  it('part2 §4 a scheduled closure whose start is already past becomes active on save', async () => {
    const wire = await createClosure({ is_active: false, start_time: iso(now() - HOUR_MS), end_time: iso(now() + DAY_MS) });
    expect(wire).toMatchObject({ is_active: true, start_time: iso(now() - HOUR_MS), last_start_time: iso(now()) });
  });

  it('part2 §4 an inactive closure has its times cleared', async () => {
    const wire = await createClosure({ is_active: false, start_time: null, end_time: iso(now() + DAY_MS) });
    expect(wire).toMatchObject({ is_active: false, start_time: null, end_time: null });
  });

  it('an automated closure carries its asset (thing) and the asset decides its status', async () => {
    const wire = await createClosure({ closure_type: 'automated', thing_id: thingA.id, is_active: false, end_time: null });
    expect(wire.thing).toMatchObject({ id: thingA.id, nickname: 'Arrow 7', haas_id: thingA.haasId, registry_number: 'R-7' });
    expect(wire.is_in_service).toBe(true);
    const closure = fromClosureWire(wire, now());
    expect(closure).toMatchObject({ secondaryDisplayName: 'by Arrow 7', status: 'standby', thingsAssociated: [thingA.id] });
    expect(closureStatus(closure, now() + 9 * HOUR_MS)).toBe('pending');
  });

  it("an automated closure's asset must be visible: another organization's asset → 422 'Asset not found'", async () => {
    const before = await closuresSnapshot();
    const answer = await call(
      server,
      'POST',
      '/organization/closure',
      token.adminA,
      closureBody({ closure_type: 'automated', thing_id: thingB.id }),
    );
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe('thing_id: Asset not found');
    expect(errorText('assetSave', { status: answer.status, message: answer.body.message ?? null }).text).toBe('Asset not found');
    expect(await closuresSnapshot()).toBe(before);
  });

  it('publishing stores the WZDx fields; a complete WZDx closure is compliant', async () => {
    const fields = publishing();
    const wire = await createClosure(fields);
    expect(wire).toMatchObject({ ...fields, is_wzdx_compliant: true });
    const closure = fromClosureWire(wire, now());
    expect(closure).toMatchObject({ isPublishOn: true, wzdxId: fields.external_id });
  });

  it.each([
    ['a description over 100', { description: 'd'.repeat(101) }, 'description: 100 Max Characters'],
    ['no description', { description: '  ' }, 'description: Required'],
    ['an alert message over 40', { alert_message: 'a'.repeat(41) }, 'alert_message: 40 Max Characters'],
    ['an active closure without an end time', { end_time: null }, 'end_time: End date required'],
    ['an end time over 3 months ahead', { end_time: iso(Date.UTC(2027, 1, 22, 12, 1)) }, 'end_time: Must be within 3 months'],
    ['an end time already past', { end_time: iso(Date.UTC(2026, 10, 22, 11, 0)) }, 'end_time: End date must be in the future'],
    ['a lane 0', { impacted_lanes: [0] }, 'impacted_lanes.0: Must be between 1 and 9'],
    ['a lane 10', { impacted_lanes: [3, 10] }, 'impacted_lanes.1: Must be between 1 and 9'],
    ['a user route of 1 point', { user_route: [{ lat: 41.88, lng: -87.63 }] }, 'user_route: Required'],
    [
      'no route at all',
      { user_route: [], calculated_route: [] },
      "calculated_route: ERROR: Please create new Closure on map. Click 'View Instructions' above if needed.",
    ],
    ['publishing without a WZDx id', { ...publishing(), external_id: '', is_publish_on: true }, 'external_id: Required'],
    ['publishing without a location method', { ...publishing(), location_method: null }, 'location_method: Required'],
    ['publishing without a vehicle impact', { ...publishing(), vehicle_impact: ' ' }, 'vehicle_impact: Required'],
    ['a WZDx id over 100', { ...publishing(), external_id: 'w'.repeat(101) }, 'external_id: 100 Max Characters'],
    ['an automated closure without its asset', { closure_type: 'automated', thing_id: null }, 'thing_id: Required'],
  ])("part2 §5 %s → 422 %s → 'Unable to save Closure'", async (_case, overrides, message) => {
    const before = await closuresSnapshot();
    const answer = await call(server, 'POST', '/organization/closure', token.adminA, closureBody(overrides));
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe(message);
    expect(shown('closureSave', answer)).toBe('Unable to save Closure');
    expect(await closuresSnapshot()).toBe(before);
  });

  it('part2 §5 direction is required for WZDx organizations only', async () => {
    const answer = await call(
      server,
      'POST',
      '/organization/closure',
      token.adminW,
      closureBody({ organization_id: orgW.id, direction: '' }),
    );
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe('direction: Required');
    await createClosure({ organization_id: orgW.id, direction: 'E' }, token.adminW);
    await createClosure({ direction: '' });
  });

  it("part2 §8 a WZDx id already in use → 422 'violates unique' → 'ID is already in use. Please select a new ID'", async () => {
    const fields = publishing();
    const first = await createClosure(fields);
    const before = await closuresSnapshot();
    const answer = await call(server, 'POST', '/organization/closure', token.adminA, closureBody({ ...fields, description: 'Another' }));
    expect(answer.status).toBe(422);
    expect(answer.body.message).toContain('violates unique');
    expect(shown('closureSave', answer)).toBe('ID is already in use. Please select a new ID');
    expect(await closuresSnapshot()).toBe(before);
    // Once the first is deleted its id is free again (the unique index skips deleted rows).
    expect((await call(server, 'DELETE', `/organization/closure/${first.id}`, token.adminA)).status).toBe(200);
    await createClosure({ ...fields, description: 'Reused id' });
  });

  it("part2 §8 a feed closure cannot be created by the Dashboard → 'Closure not managed by Dashboard'", async () => {
    const answer = await call(server, 'POST', '/organization/closure', token.adminA, closureBody({ closure_type: 'feed' }));
    expect(answer.status).toBe(422);
    expect(shown('closureSave', answer)).toBe('Closure not managed by Dashboard');
  });

  it('part2 §6 needs closure create or manage → 403 for a USER, nothing stored', async () => {
    const before = await closuresSnapshot();
    expect((await call(server, 'POST', '/organization/closure', token.userA, closureBody())).status).toBe(403);
    expect(await closuresSnapshot()).toBe(before);
  });

  it(`part2 §6 mobile closure permissions apply when the request says ${MOBILE_CLIENT_HEADER}: mobile`, async () => {
    const before = await closuresSnapshot();
    expect((await call(server, 'POST', '/organization/closure', token.mobileA, closureBody())).status).toBe(403);
    expect(await closuresSnapshot()).toBe(before);
    const answer = await server.app.inject({
      method: 'POST',
      url: '/organization/closure',
      headers: { ...server.auth(token.mobileA), [MOBILE_CLIENT_HEADER]: 'mobile' },
      payload: closureBody({ description: 'From the phone' }),
    });
    expect(answer.statusCode).toBe(201);
    // A desktop admin holds mobile:closure:manage too (the ADMIN role).
    const admin = await server.app.inject({
      method: 'POST',
      url: '/organization/closure',
      headers: { ...server.auth(token.adminA), [MOBILE_CLIENT_HEADER]: 'mobile' },
      payload: closureBody({ description: 'Admin on a phone' }),
    });
    expect(admin.statusCode).toBe(201);
  });

  it("another organization's id → 404 'Organization not found', nothing stored", async () => {
    const before = await closuresSnapshot();
    const answer = await call(server, 'POST', '/organization/closure', token.adminB, closureBody());
    expect(answer.status).toBe(404);
    expect(answer.body.message).toBe('Organization not found');
    expect(await closuresSnapshot()).toBe(before);
  });

  it('property: arbitrary and near-valid bad bodies never give a 5xx and never store a row', async () => {
    const before = await closuresSnapshot();
    const notNull = junk.filter((value) => value !== null);
    const bodies = badBodies(closureBody(), {
      organization_id: junk,
      closure_type: junk,
      is_active: notNull.filter((value) => typeof value !== 'boolean'),
      description: fc.oneof(
        notNull.filter((value) => typeof value !== 'string'),
        fc.string({ minLength: 101, maxLength: 130 }).filter((s) => s.trim().length > 100),
      ),
      alert_message: fc.oneof(
        fc.integer(),
        fc.string({ minLength: 41, maxLength: 60 }).filter((s) => s.trim().length > 40),
      ),
      user_route: fc.oneof(
        notNull,
        fc.array(fc.record({ lat: fc.double({ min: 91, max: 1e9, noNaN: true }), lng: fc.double() }), { minLength: 2, maxLength: 3 }),
      ),
      impacted_lanes: fc.oneof(
        notNull.filter((value) => !(Array.isArray(value) && value.length === 0)),
        fc.array(fc.oneof(fc.integer({ min: 10 }), fc.integer({ max: 0 }), fc.double({ min: 1.1, max: 1.9 })), {
          minLength: 1,
          maxLength: 3,
        }),
      ),
      end_time: fc.oneof(
        notNull,
        fc.constant(null),
        fc.date({ min: new Date(0), max: new Date(2026, 0, 1), noInvalidDate: true }).map((d) => d.toISOString()),
      ),
      direction: fc.oneof(fc.integer(), fc.constantFrom('NE', 'north', 'X')),
      // A manual closure ignores thing_id; a value that is not a string is refused.
      thing_id: notNull.filter((value) => typeof value !== 'string'),
    });
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const answer = await call(server, 'POST', '/organization/closure', token.adminA, body);
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
    expect(await closuresSnapshot()).toBe(before);
  });
});

describe('part2 §7 PUT /organization/closure/{uuid}', () => {
  it("round trip: the domain's own payload of the answered closure saves, with changes", async () => {
    const wire = await createClosure();
    const closure = fromClosureWire(wire, now());
    const payload = toClosurePayload({ ...closure, description: 'Bridge deck repair, phase 2', impactedLanes: [3] });
    const answer = await call(server, 'PUT', `/organization/closure/${wire.id}`, token.adminA, payload);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const updated = closureWireSchema.parse(answer.json);
    expect(updated).toMatchObject({
      id: wire.id,
      description: 'Bridge deck repair, phase 2',
      impacted_lanes: [3],
      start_time: wire.start_time,
      last_start_time: wire.last_start_time,
    });
  });

  it("part2 §8 a closure of another organization, or none → 404 → 'Closure not found', unchanged", async () => {
    const wire = await createClosure();
    const before = await closuresSnapshot();
    for (const url of [`/organization/closure/${wire.id}`, '/organization/closure/00000000-0000-4000-8000-000000000000']) {
      const answer = await call(server, 'PUT', url, token.adminB, closureBody({ organization_id: orgB.id }));
      expect(answer.status).toBe(404);
      expect(shown('closureSave', answer)).toBe('Closure not found');
    }
    expect(await closuresSnapshot()).toBe(before);
  });

  it("part2 §8 a WZDx id in use by another closure → 'ID is already in use. Please select a new ID'", async () => {
    const taken = publishing();
    await createClosure(taken);
    const other = await createClosure(publishing());
    const before = await closuresSnapshot();
    const answer = await call(server, 'PUT', `/organization/closure/${other.id}`, token.adminA, closureBody(taken));
    expect(shown('closureSave', answer)).toBe('ID is already in use. Please select a new ID');
    expect(await closuresSnapshot()).toBe(before);
  });

  it("part2 §4, §8 a feed closure cannot be edited → 422 'not managed' → 'Closure not managed by Dashboard'", async () => {
    const feed = await insertFeedClosure();
    const before = await closuresSnapshot();
    const answer = await call(server, 'PUT', `/organization/closure/${feed.id}`, token.adminA, closureBody());
    expect(answer.status).toBe(422);
    expect(answer.body.message).toContain('not managed');
    expect(shown('closureSave', answer)).toBe('Closure not managed by Dashboard');
    const toggle = await call(server, 'PUT', `/organization/closure/${feed.id}`, token.adminA, {
      uuid: feed.id,
      is_active: false,
      end_time: null,
      isQuickUpdate: true,
    });
    expect(shown('closureToggle', toggle)).toBe('Unable to Activate/Deactivate');
    expect(await closuresSnapshot()).toBe(before);
  });

  it('part2 §6 needs closure update or manage → 403 for a USER; the mobile variant with the mobile header', async () => {
    const wire = await createClosure();
    const before = await closuresSnapshot();
    expect((await call(server, 'PUT', `/organization/closure/${wire.id}`, token.userA, closureBody({ description: 'x' }))).status).toBe(
      403,
    );
    expect((await call(server, 'PUT', `/organization/closure/${wire.id}`, token.mobileA, closureBody({ description: 'x' }))).status).toBe(
      403,
    );
    expect(await closuresSnapshot()).toBe(before);
    const mobile = await server.app.inject({
      method: 'PUT',
      url: `/organization/closure/${wire.id}`,
      headers: { ...server.auth(token.mobileA), [MOBILE_CLIENT_HEADER]: 'mobile' },
      payload: closureBody({ description: 'Edited on a phone' }),
    });
    expect(mobile.statusCode).toBe(200);
    expect((await closureRow(wire.id)).description).toBe('Edited on a phone');
  });

  it('part2 §4 quick toggle: deactivate clears the times; activate sets an end one month ahead', async () => {
    const wire = await createClosure();
    const off = await call(
      server,
      'PUT',
      `/organization/closure/${wire.id}`,
      token.adminA,
      quickTogglePayload({ id: wire.id }, false, now()),
    );
    expect(off.status).toBe(200);
    expect(closureWireSchema.parse(off.json)).toMatchObject({ is_active: false, start_time: null, end_time: null });
    server.clock.advance(MINUTE_MS);
    const on = await call(
      server,
      'PUT',
      `/organization/closure/${wire.id}`,
      token.adminA,
      quickTogglePayload({ id: wire.id }, true, now()),
    );
    expect(on.status).toBe(200);
    expect(closureWireSchema.parse(on.json)).toMatchObject({
      is_active: true,
      start_time: iso(now()),
      last_start_time: iso(now()),
      end_time: iso(Date.UTC(2026, 11, 22, 12, 1)),
    });
  });

  it("part2 §8 closure toggle failures → 'Unable to Activate/Deactivate' (an automated closure, an end over 3 months, no end)", async () => {
    const automated = await createClosure({ closure_type: 'automated', thing_id: thingA.id });
    const manual = await createClosure();
    const before = await closuresSnapshot();
    const cases = [
      [automated.id, { uuid: automated.id, is_active: true, end_time: iso(now() + DAY_MS), isQuickUpdate: true }],
      [manual.id, { uuid: manual.id, is_active: true, end_time: iso(now() + 100 * DAY_MS), isQuickUpdate: true }],
      [manual.id, { uuid: manual.id, is_active: true, end_time: null, isQuickUpdate: true }],
    ] as const;
    for (const [id, body] of cases) {
      const answer = await call(server, 'PUT', `/organization/closure/${id}`, token.adminA, body);
      expect(answer.status).toBe(422);
      expect(shown('closureToggle', answer)).toBe('Unable to Activate/Deactivate');
    }
    expect(await closuresSnapshot()).toBe(before);
  });

  it('property: bad bodies (full and quick) never give a 5xx and never change the closure', async () => {
    const wire = await createClosure();
    const before = await closuresSnapshot();
    const notNull = junk.filter((value) => value !== null);
    const full = badBodies(closureBody(), {
      organization_id: junk,
      is_active: notNull.filter((value) => typeof value !== 'boolean'),
      description: fc.oneof(
        notNull.filter((value) => typeof value !== 'string'),
        fc.string({ minLength: 101, maxLength: 130 }).filter((s) => s.trim().length > 100),
      ),
      end_time: fc.oneof(notNull, fc.constant(null)),
      // No lanes ([]) is a valid answer; anything else here is not.
      impacted_lanes: notNull.filter((value) => !(Array.isArray(value) && value.length === 0)),
    });
    const quick = badBodies(
      { uuid: wire.id, is_active: true, end_time: iso(now() + DAY_MS), isQuickUpdate: true },
      { is_active: notNull.filter((value) => typeof value !== 'boolean'), end_time: fc.oneof(notNull, fc.constant(null)), uuid: fc.uuid() },
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(full, quick), async (body) => {
        const answer = await call(server, 'PUT', `/organization/closure/${wire.id}`, token.adminA, body);
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
    expect(await closuresSnapshot()).toBe(before);
  });
});

describe('part2 §7 DELETE /organization/closure/{id}', () => {
  it("answers { id }, soft-deletes; again → 404 'Closure not found' (counts as deleted)", async () => {
    const wire = await createClosure();
    const answer = await call(server, 'DELETE', `/organization/closure/${wire.id}`, token.adminA);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ id: wire.id });
    expect((await closureRow(wire.id)).deletedAt).toEqual(new Date(now()));
    const again = await call(server, 'DELETE', `/organization/closure/${wire.id}`, token.adminA);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('Closure not found');
  });

  it("part2 §4 a feed closure cannot be deleted → 'Closure not managed by Dashboard'", async () => {
    const feed = await insertFeedClosure();
    const answer = await call(server, 'DELETE', `/organization/closure/${feed.id}`, token.adminA);
    expect(shown('closureSave', answer)).toBe('Closure not managed by Dashboard');
    expect((await closureRow(feed.id)).deletedAt).toBeNull();
  });

  it('part2 §6 needs closure delete or manage: 403 for a USER and for mobile create/update, still there', async () => {
    const wire = await createClosure();
    for (const bearer of [token.userA, token.mobileA]) {
      expect((await call(server, 'DELETE', `/organization/closure/${wire.id}`, bearer)).status).toBe(403);
    }
    const mobile = await server.app.inject({
      method: 'DELETE',
      url: `/organization/closure/${wire.id}`,
      headers: { ...server.auth(token.mobileA), [MOBILE_CLIENT_HEADER]: 'mobile' },
    });
    expect(mobile.statusCode).toBe(403);
    expect((await closureRow(wire.id)).deletedAt).toBeNull();
  });

  it('a user of another organization → 404, still there', async () => {
    const wire = await createClosure();
    expect((await call(server, 'DELETE', `/organization/closure/${wire.id}`, token.adminB)).status).toBe(404);
    expect((await closureRow(wire.id)).deletedAt).toBeNull();
  });

  it('property: arbitrary ids never give a 5xx and never delete a row', async () => {
    const before = await closuresSnapshot();
    await fc.assert(
      fc.asyncProperty(badIds, async (id) => {
        const answer = await call(server, 'DELETE', `/organization/closure/${encodeURIComponent(id)}`, token.adminA);
        expect([404, 422]).toContain(answer.status);
      }),
      { numRuns: 60 },
    );
    expect(await closuresSnapshot()).toBe(before);
  });
});

describe('part2 §7 GET /organization/closure (incremental)', () => {
  const answerSchema = incrementalAnswerSchema(closureWireSchema);

  it("a full load, then only what changed since the server's timestamp, with the deleted ids", async () => {
    const kept = await createClosure({ description: 'Kept' });
    const changed = await createClosure({ description: 'Will change' });
    const removed = await createClosure({ description: 'Will go' });
    // Rows written at the very moment of a read come again on the next call (the time test is
    // inclusive, so nothing is ever missed); move on so this test sees only its own changes.
    server.clock.advance(MINUTE_MS);
    const full = answerSchema.parse((await call(server, 'GET', `/organization/closure?org_ids[]=${orgA.id}`, token.userA)).json);
    expect(full.meta).toEqual({ server_timestamp: iso(now()), deleted_ids: [] });
    expect(full.data.map((closure) => closure.id)).toEqual(expect.arrayContaining([kept.id, changed.id, removed.id]));
    expect(full.data.every((closure) => closure.organization?.id === orgA.id)).toBe(true);

    server.clock.advance(5 * MINUTE_MS);
    expect(
      (await call(server, 'PUT', `/organization/closure/${changed.id}`, token.adminA, closureBody({ description: 'Changed' }))).status,
    ).toBe(200);
    expect((await call(server, 'DELETE', `/organization/closure/${removed.id}`, token.adminA)).status).toBe(200);
    server.clock.advance(MINUTE_MS);

    const since = encodeURIComponent(full.meta.server_timestamp);
    const next = answerSchema.parse(
      (await call(server, 'GET', `/organization/closure?org_ids[]=${orgA.id}&last_updated_timestamp=${since}`, token.userA)).json,
    );
    expect(next.data.map((closure) => closure.id)).toEqual([changed.id]);
    expect(next.data[0]!.description).toBe('Changed');
    expect(next.meta).toEqual({ server_timestamp: iso(now()), deleted_ids: [removed.id] });

    const quiet = answerSchema.parse(
      (
        await call(
          server,
          'GET',
          `/organization/closure?last_updated_timestamp=${encodeURIComponent(next.meta.server_timestamp)}`,
          token.userA,
        )
      ).json,
    );
    expect(quiet).toEqual({ data: [], meta: { server_timestamp: iso(now()), deleted_ids: [] } });
  });

  it("a user of another organization sees none of A's closures; naming only A → 404 'Organization not found'", async () => {
    await createClosure();
    const own = answerSchema.parse((await call(server, 'GET', '/organization/closure', token.adminB)).json);
    expect(own.data.some((closure) => closure.organization?.id === orgA.id)).toBe(false);
    const answer = await call(server, 'GET', `/organization/closure?org_ids[]=${orgA.id}`, token.adminB);
    expect(answer.status).toBe(404);
    expect(shown('lists', answer)).toBe('Organization not found');
    // haas:manage sees every organization.
    const staff = answerSchema.parse((await call(server, 'GET', `/organization/closure?org_ids[]=${orgA.id}`, token.engineer)).json);
    expect(staff.data.length).toBeGreaterThan(0);
  });

  it('needs the closures view → 403 for a Media user; a malformed timestamp → 422 naming it', async () => {
    expect((await call(server, 'GET', '/organization/closure', token.mediaA)).status).toBe(403);
    const answer = await call(server, 'GET', '/organization/closure?last_updated_timestamp=yesterday', token.userA);
    expect(answer.status).toBe(422);
    expect(answer.body.message).toContain('last_updated_timestamp');
  });

  it('GET /organization/closure/{id}: the detail; another organization → 404', async () => {
    const wire = await createClosure();
    expect(closureWireSchema.parse((await call(server, 'GET', `/organization/closure/${wire.id}`, token.userA)).json)).toEqual(wire);
    expect((await call(server, 'GET', `/organization/closure/${wire.id}`, token.adminB)).status).toBe(404);
  });
});

describe('isUniqueViolation', () => {
  it('finds 23505 of the named index through wrapping causes', () => {
    const driver = { code: '23505', constraint: 'closures_external_id_idx', message: 'duplicate key value violates unique constraint' };
    expect(isUniqueViolation(new Error('Failed query', { cause: driver }), 'closures_external_id_idx')).toBe(true);
    expect(
      isUniqueViolation(
        { code: '23505', message: 'duplicate key value violates unique constraint "closures_external_id_idx"' },
        'closures_external_id_idx',
      ),
    ).toBe(true);
    expect(isUniqueViolation({ code: '23505', constraint: 'users_email_idx' }, 'closures_external_id_idx')).toBe(false);
    expect(isUniqueViolation(new Error('boom'), 'closures_external_id_idx')).toBe(false);
  });
});
