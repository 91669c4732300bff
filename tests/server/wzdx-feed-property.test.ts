/**
 * part 2 §1 "Closures can be published to a work-zone data exchange (WZDx) feed": every closure
 * the form can produce, saved through the real call, comes out of GET /wzdx/{orgId}/feed valid
 * against the official WZDx 4.2 schema (../shared/wzdx/schemas-4.2, ajv). A property test: random
 * valid forms (every status mode, direction, lanes, route shape, WZDx fields, odd text) → saved →
 * the feed → zero schema errors, and the saved closure is in the feed when it is in effect or planned.
 */
import type { ValidateFunction } from 'ajv';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closureEndLimit } from '../../src/domain/closure-form';
import { CLOSURE_ALERT_MESSAGE_MAX, CLOSURE_DESCRIPTION_MAX, CLOSURE_DIRECTIONS, HOUR_MS, MINUTE_MS } from '../../src/domain/constants';
import { WZDX_LOCATION_METHODS, WZDX_VEHICLE_IMPACTS, type WorkZoneFeed } from '../../src/domain/wzdx';
import { call } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';
import { wzdxFeedValidator } from '../support/wzdx-schema';

const RUNS = 40;

let validateFeed: ValidateFunction;
let server: TestServer;
let org: { id: string };
let token = '';
const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  validateFeed = wzdxFeedValidator();
  server = await createTestServer();
  org = await server.createOrg({ name: 'Property DOT', isWzdxOrg: true, email: 'feed@property.example', contactName: 'Desk' });
  const admin = await server.createUser({ org, role: 'ADMIN' });
  token = await server.signIn(admin.email);
});
afterAll(() => server.close());

/** Text a user may type: any printable characters, emoji and accents included, not blank. */
const text = (min: number, max: number) =>
  fc.string({ unit: 'grapheme', minLength: min, maxLength: max }).filter((s) => s.trim().length >= min && [...s].length <= max);

const point = fc.record({
  lat: fc.double({ min: 30.1, max: 30.4, noNaN: true }),
  lng: fc.double({ min: -97.9, max: -97.6, noNaN: true }),
});

/** part 2 §4 form modes: active (an end), scheduled (start past or future, end after both), inactive. */
const mode = fc.oneof(
  fc.record({ kind: fc.constant('active' as const), endIn: fc.integer({ min: 1, max: 80 * 24 }) }),
  fc.record({
    kind: fc.constant('scheduled' as const),
    startIn: fc.integer({ min: -72, max: 24 * 60 }),
    length: fc.integer({ min: 1, max: 24 * 20 }),
  }),
  fc.record({ kind: fc.constant('inactive' as const) }),
);

const form = fc.record({
  description: text(1, CLOSURE_DESCRIPTION_MAX),
  alert: fc.option(text(0, CLOSURE_ALERT_MESSAGE_MAX), { nil: null }),
  direction: fc.constantFrom(...CLOSURE_DIRECTIONS),
  lanes: fc.uniqueArray(fc.integer({ min: 1, max: 9 }), { maxLength: 9 }),
  route: fc.array(point, { minLength: 2, maxLength: 8 }),
  userRoute: fc.array(point, { minLength: 2, maxLength: 4 }),
  streetStart: fc.option(text(0, 60), { nil: null }),
  streetEnd: fc.option(text(0, 60), { nil: null }),
  mode,
  wzdxId: text(1, 90),
  locationMethod: fc.constantFrom(...WZDX_LOCATION_METHODS),
  vehicleImpact: fc.constantFrom(...WZDX_VEHICLE_IMPACTS),
  groupId: fc.option(text(1, 40), { nil: null }),
});

let serial = 0;

describe('GET /wzdx/{orgId}/feed for random valid closure forms', () => {
  it(`is valid WZDx 4.2 after each of ${RUNS} saved forms`, async () => {
    await fc.assert(
      fc.asyncProperty(form, async (f) => {
        const now = server.clock.ms;
        const times =
          f.mode.kind === 'active'
            ? { is_active: true, start_time: null, end_time: iso(Math.min(now + f.mode.endIn * HOUR_MS, closureEndLimit(now) - MINUTE_MS)) }
            : f.mode.kind === 'scheduled'
              ? (() => {
                  const start = now + f.mode.startIn * HOUR_MS;
                  const end = Math.min(Math.max(start, now) + f.mode.length * HOUR_MS, closureEndLimit(now) - MINUTE_MS);
                  return { is_active: false, start_time: iso(start), end_time: iso(end) };
                })()
              : { is_active: false, start_time: null, end_time: null };
        // The WZDx id is unique per organization: a serial keeps random ids apart.
        const wzdxId = `${f.wzdxId.trim()}#${++serial}`;
        const saved = await call(server, 'POST', '/organization/closure', token, {
          organization_id: org.id,
          closure_type: 'manual',
          thing_id: null,
          is_dashboard_managed: true,
          description: f.description,
          alert_message: f.alert,
          direction: f.direction,
          street_start: f.streetStart,
          street_end: f.streetEnd,
          user_route: f.userRoute,
          calculated_route: f.route,
          impacted_lanes: f.lanes,
          ...times,
          external_id: wzdxId,
          location_method: f.locationMethod,
          vehicle_impact: f.vehicleImpact,
          group_id: f.groupId,
        });
        expect(saved.status, JSON.stringify(saved.body)).toBe(201);

        const response = await server.app.inject({ method: 'GET', url: `/wzdx/${org.id}/feed` });
        expect(response.statusCode).toBe(200);
        const feed = JSON.parse(response.body) as WorkZoneFeed;
        const ok = validateFeed(feed);
        expect(validateFeed.errors ?? []).toEqual([]);
        expect(ok).toBe(true);
        // In effect or planned (every mode but inactive) → in the feed; inactive → not.
        expect(feed.features.some((feature) => feature.id === wzdxId)).toBe(f.mode.kind !== 'inactive');
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});
