import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../src/domain/constants';
import { buildWzdxFeed, type WorkZoneFeed, type WzdxClosure } from '../../src/domain/wzdx';
import { closures } from '../../server/db/schema';
import { workZoneFeedAnswer } from '../../server/http/wzdx-feed/schema';
import { WZDX_SCHEMA_DIR } from '../../server/wzdx/schema';
import { call } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';

// ── the official WZDx 4.2 schemas (draft-07), each registered under its $id ──
/** The official schemas, vendored byte for byte from ../shared/wzdx/schemas-4.2 (server/wzdx/schema.ts). */
const SCHEMA_DIR = WZDX_SCHEMA_DIR;
const FEED_ID = 'https://raw.githubusercontent.com/usdot-jpo-ode/wzdx/main/schemas/4.2/WorkZoneFeed.json';
let validateFeed: ValidateFunction;

let server: TestServer;
let orgW: { id: string; name: string };
let orgPlain: { id: string };
let token = '';
const iso = (ms: number) => new Date(ms).toISOString();
const now = () => server.clock.ms;

beforeAll(async () => {
  // strictTypes off: the official files put `properties` in `allOf` branches without a type (valid JSON Schema).
  const ajv = new Ajv({ allErrors: true, strictTypes: false });
  addFormats(ajv);
  for (const file of readdirSync(SCHEMA_DIR).filter((name) => name.endsWith('.json'))) {
    const schema = JSON.parse(readFileSync(path.join(SCHEMA_DIR, file), 'utf8')) as { $id: string };
    ajv.addSchema(schema, schema.$id);
  }
  validateFeed = ajv.getSchema(FEED_ID)!;

  server = await createTestServer();
  orgW = await server.createOrg({ name: 'Whiskey DOT', isWzdxOrg: true, email: 'wzdx@whiskey.example', contactName: 'Work Zone Desk' });
  orgPlain = await server.createOrg({ name: 'Plain County' });
  const admin = await server.createUser({ org: orgW, role: 'ADMIN' });
  token = await server.signIn(admin.email);
});
afterAll(() => server.close());

const route = [
  { lat: 41.88, lng: -87.63 },
  { lat: 41.885, lng: -87.6301 },
  { lat: 41.89, lng: -87.63 },
];

function body(overrides: Record<string, unknown> = {}) {
  return {
    organization_id: orgW.id,
    closure_type: 'manual',
    thing_id: null,
    is_active: true,
    description: 'Bridge deck repair',
    alert_message: 'Right lane closed',
    direction: 'S',
    street_start: 'Main St',
    street_end: '5th Ave',
    user_route: [route[0], route[2]],
    calculated_route: route,
    impacted_lanes: [2],
    start_time: null,
    end_time: iso(now() + 7 * DAY_MS),
    external_id: null,
    location_method: null,
    vehicle_impact: null,
    group_id: null,
    ...overrides,
  };
}

async function create(overrides: Record<string, unknown>) {
  const created = await call(server, 'POST', '/organization/closure', token, body(overrides));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.json as { id: string };
}

async function feedOf(orgId: string) {
  const response = await server.app.inject({ method: 'GET', url: `/wzdx/${orgId}/feed` });
  return { status: response.statusCode, headers: response.headers, json: JSON.parse(response.body) as unknown };
}

function expectValid(feed: unknown): void {
  const ok = validateFeed(feed);
  expect(validateFeed.errors ?? []).toEqual([]);
  expect(ok).toBe(true);
}

describe('GET /wzdx/{organizationId}/feed (public WZDx 4.2 feed)', () => {
  it('publishes the active and planned publishing closures, without sign-in, valid against the official schema', async () => {
    const active = await create({
      external_id: 'wz-active',
      location_method: 'channel-device-method',
      vehicle_impact: 'some-lanes-closed',
      group_id: 'bridge',
    });
    const planned = await create({
      is_active: false,
      start_time: iso(now() + DAY_MS),
      end_time: iso(now() + 2 * DAY_MS),
      external_id: 'wz-planned',
      location_method: 'sign-method',
      vehicle_impact: 'all-lanes-closed',
      direction: 'E',
      impacted_lanes: [1, 2, 3],
    });
    await create({ description: 'Not published' });
    const gone = await create({ external_id: 'wz-deleted', location_method: 'other', vehicle_impact: 'flagging' });
    expect((await call(server, 'DELETE', `/organization/closure/${gone.id}`, token)).status).toBe(200);
    await server.database.db.insert(closures).values({
      organizationId: orgW.id,
      closureType: 'feed',
      description: 'Read from the state feed',
      externalId: 'state-1',
      isActive: true,
      isPublishOn: true,
      isDashboardManaged: false,
      calculatedRoute: route,
    });

    const { status, headers, json } = await feedOf(orgW.id);
    expect(status).toBe(200);
    expect(headers['access-control-allow-origin']).toBe('*');
    expectValid(json);
    const feed = json as WorkZoneFeed;
    expect(feed.feed_info).toMatchObject({
      publisher: 'Whiskey DOT',
      version: '4.2',
      contact_email: 'wzdx@whiskey.example',
      data_sources: [{ data_source_id: orgW.id, organization_name: 'Whiskey DOT' }],
    });
    expect(feed.features.map((feature) => feature.id).sort()).toEqual(['wz-active', 'wz-planned']);
    const first = feed.features.find((feature) => feature.id === 'wz-active')!;
    expect(first.properties).toMatchObject({
      core_details: {
        direction: 'southbound',
        road_names: ['Main St', '5th Ave'],
        related_road_events: [{ type: 'related-work-zone', id: 'bridge' }],
      },
      vehicle_impact: 'some-lanes-closed',
      event_status: 'active',
      is_start_date_verified: true,
    });
    expect(first.geometry.coordinates).toEqual(route.map((p) => [p.lng, p.lat]));
    const second = feed.features.find((feature) => feature.id === 'wz-planned')!;
    expect(second.properties).toMatchObject({
      event_status: 'planned',
      lanes: [1, 2, 3].map((order) => ({ order, status: 'closed', type: 'general' })),
    });
    expect(active.id).not.toBe(planned.id);
  });

  it('a closure that has ended leaves the feed; the feed stays valid', async () => {
    server.clock.advance(8 * DAY_MS + HOUR_MS);
    const { json } = await feedOf(orgW.id);
    expectValid(json);
    expect((json as WorkZoneFeed).features).toEqual([]);
  });

  it('an unknown organization, a malformed id, or one that is not a WZDx organization → 404', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'whiskey', orgPlain.id]) {
      const { status, json } = await feedOf(id);
      expect(status).toBe(404);
      expect(json).toMatchObject({ message: 'Organization not found' });
    }
  });
});

describe("the feed's response schema (workZoneFeedAnswer)", () => {
  const closure = (overrides: Partial<WzdxClosure>): WzdxClosure => ({
    closureType: 'manual',
    status: 'active',
    isPublishOn: true,
    wzdxId: 'wz-1',
    routePath: route,
    startTime: null,
    endTime: Date.UTC(2031, 0, 2),
    lastStartTime: Date.UTC(2030, 11, 31),
    direction: 'N',
    streetStart: 'Main St',
    streetEnd: '5th Ave',
    description: 'Bridge deck repair',
    impactedLanes: [1, 2],
    vehicleImpact: 'some-lanes-closed',
    locationMethod: 'channel-device-method',
    groupId: 'bridge',
    ...overrides,
  });

  it("writes the builder's feed byte for byte: every field kept, in the builder's order", () => {
    const now = Date.UTC(2031, 0, 1);
    const contact = { contact_name: 'Desk', contact_email: 'desk@dot.example' };
    const full = buildWzdxFeed(
      [
        closure({}),
        closure({ wzdxId: 'wz-2', status: 'pending', startTime: now + DAY_MS, description: ' ', groupId: null, impactedLanes: [] }),
      ],
      { publisher: 'DOT', ...contact, data_sources: [{ data_source_id: 'org', organization_name: 'DOT', ...contact }] },
      now,
    );
    expect(full.features).toHaveLength(2);
    expect(JSON.stringify(workZoneFeedAnswer.parse(full))).toBe(JSON.stringify(full));
    const bare = buildWzdxFeed([], { publisher: 'DOT', data_sources: [{ data_source_id: 'org', organization_name: 'DOT' }] }, now);
    expect(JSON.stringify(workZoneFeedAnswer.parse(bare))).toBe(JSON.stringify(bare));
    // A field the builder may add later is kept, not left out.
    const extended = { ...full, extra: 1, features: full.features.map((f) => ({ ...f, extra: 2 })) };
    expect(JSON.stringify(workZoneFeedAnswer.parse(extended))).toBe(JSON.stringify(extended));
  });
});
