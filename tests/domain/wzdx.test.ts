import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Closure } from '../../src/domain/closure';
import { closureEndLimit } from '../../src/domain/closure-form';
import { HOUR_MS } from '../../src/domain/constants';
import {
  buildWzdxFeed,
  toWzdxDirection,
  WZDX_DIRECTIONS,
  WZDX_EVENT_STATUSES,
  WZDX_LANE_STATUSES,
  WZDX_LANE_TYPES,
  WZDX_LOCATION_METHODS,
  WZDX_RELATED_ROAD_EVENT_TYPES,
  WZDX_VEHICLE_IMPACTS,
  WZDX_WORK_ZONE_TYPES,
  wzdxDate,
  wzdxEventStatus,
  type WorkZoneFeed,
  type WzdxFeedInfoInput,
  wzdxValueLabel,
} from '../../src/domain/wzdx';

// ── the official schemas (draft-07), registered under their $id ─────────────

// The official files, copied byte for byte into the repository: the schemas the server validates
// imported feeds with (server/wzdx/schemas) and the U.S. DOT's example feeds (tests/fixtures).
const SCHEMA_DIR = fileURLToPath(new URL('../../server/wzdx/schemas/', import.meta.url));
const EXAMPLES_DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));
const FEED_ID = 'https://raw.githubusercontent.com/usdot-jpo-ode/wzdx/main/schemas/4.2/WorkZoneFeed.json';
const DIRECTION_ID = 'https://raw.githubusercontent.com/usdot-jpo-ode/wzdx/main/schemas/4.2/Direction.json';

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

let validateFeed: ValidateFunction;
let validateDirection: ValidateFunction;

beforeAll(() => {
  // The files declare draft-07, which is Ajv's default dialect (not ajv/dist/2020).
  // Strict mode stays on, except strictTypes: the official files put `properties`/`required` in
  // `allOf` branches without `type: "object"`, which is valid JSON Schema but which Ajv logs.
  const ajv = new Ajv({ allErrors: true, strictTypes: false });
  addFormats(ajv);
  for (const file of readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.json'))) {
    const schema = readJson(SCHEMA_DIR + file) as { $id: string; $schema: string };
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    ajv.addSchema(schema, schema.$id);
  }
  validateFeed = ajv.getSchema(FEED_ID)!;
  validateDirection = ajv.getSchema(DIRECTION_ID)!;
  expect(validateFeed).toBeTypeOf('function');
});

function expectValid(feed: unknown): void {
  const ok = validateFeed(feed);
  expect(validateFeed.errors ?? []).toEqual([]);
  expect(ok).toBe(true);
}

describe('WZDx 4.2 official examples validate (the validator works)', () => {
  const examples = readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.geojson'));
  it('has the examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(9);
  });
  it.each(examples)('%s', (file) => {
    expectValid(readJson(EXAMPLES_DIR + file));
  });
});

// ── fixtures ─────────────────────────────────────────────────────────────────

const NOW = Date.parse('2026-11-22T12:00:00.000Z');

const feedInfo: WzdxFeedInfoInput = {
  publisher: 'Lightbar',
  contact_name: 'Lightbar Support',
  contact_email: 'support@lightbar.example',
  update_frequency: 60,
  data_sources: [{ data_source_id: 'ds-org1', organization_name: 'Org One' }],
};

const base: Closure = {
  id: 'c1',
  description: 'Bridge deck repair',
  secondaryDisplayName: 'Manual Closure',
  closureType: 'manual',
  status: 'active',
  inService: true,
  isActive: true,
  startTime: NOW - 2 * HOUR_MS,
  endTime: NOW + 48 * HOUR_MS,
  lastStartTime: NOW - HOUR_MS,
  thingId: null,
  thingDisplayName: '',
  thingName: '',
  thingNickname: '',
  direction: 'N',
  impactedLanes: [2, 1],
  routePath: [
    { lat: 39.7392358123, lng: -104.990251987 },
    { lat: 39.74, lng: -104.99 },
    { lat: 39.75, lng: -104.98 },
  ],
  userRoute: [],
  streetStart: 'Colfax Ave',
  streetEnd: 'Broadway',
  alertMessage: 'Lane closed',
  isPublishOn: true,
  wzdxId: 'wz-manual-1',
  locationMethod: 'channel-device-method',
  vehicleImpact: 'some-lanes-closed',
  groupId: 'project-7',
  isWzdxCompliant: true,
  isDashboardManaged: true,
  isNewForm: false,
  heartbeatTime: null,
  thingsAssociated: [],
  orgId: 'org1',
  orgName: 'Org One',
  version: null,
};

const closures: Record<string, Closure> = {
  manual: base,
  automated: {
    ...base,
    id: 'c2',
    closureType: 'automated',
    isActive: false,
    status: 'active', // its asset has active closures
    wzdxId: 'wz-auto-2',
    thingId: 't1',
    direction: null,
    endTime: null,
    lastStartTime: null,
    startTime: null,
    impactedLanes: [],
    groupId: null,
    streetStart: '',
    streetEnd: '',
    vehicleImpact: 'all-lanes-closed',
    locationMethod: 'sign-method',
  },
  scheduled: {
    ...base,
    id: 'c3',
    isActive: false,
    status: 'standby',
    wzdxId: 'wz-sched-3',
    startTime: NOW + 24 * HOUR_MS,
    endTime: NOW + 72 * HOUR_MS,
    direction: 'W',
    streetStart: 'I-25',
    streetEnd: 'I-25',
  },
  noEndTime: {
    ...base,
    id: 'c4',
    wzdxId: 'wz-open-4',
    endTime: null,
    direction: 'S',
    vehicleImpact: 'all-lanes-open-shift-left',
    locationMethod: null,
  },
  eastbound: { ...base, id: 'c5', wzdxId: 'wz-east-5', direction: 'E', vehicleImpact: 'not-a-wzdx-value', description: '  ' },
};

const excluded: Record<string, Closure> = {
  'not publishing': { ...base, id: 'x1', isPublishOn: false },
  'no WZDx id': { ...base, id: 'x2', wzdxId: null },
  'feed closure': { ...base, id: 'x3', closureType: 'feed', isPublishOn: false, wzdxId: 'theirs' },
  ended: { ...base, id: 'x4', endTime: NOW },
  'inactive, not scheduled': { ...base, id: 'x5', isActive: false, status: 'standby', startTime: null, endTime: null },
  'scheduled start already past but not active': { ...base, id: 'x6', isActive: false, status: 'standby', startTime: NOW },
  'route of one point': { ...base, id: 'x7', routePath: [{ lat: 1, lng: 1 }] },
  'automated offline': { ...base, id: 'x8', closureType: 'automated', isActive: false, status: 'offline', startTime: null },
};

// ── the builder ──────────────────────────────────────────────────────────────

describe('WZDx feed built from closures validates against the official 4.2 schemas', () => {
  it.each(Object.entries(closures))('%s closure', (_name, closure) => {
    const feed = buildWzdxFeed([closure], feedInfo, NOW);
    expect(feed.features).toHaveLength(1);
    expectValid(feed);
  });

  it('all together, with the excluded ones left out', () => {
    const feed = buildWzdxFeed([...Object.values(closures), ...Object.values(excluded)], feedInfo, NOW);
    expect(feed.features.map((f) => f.id)).toEqual(['wz-manual-1', 'wz-auto-2', 'wz-sched-3', 'wz-open-4', 'wz-east-5']);
    expectValid(feed);
  });

  it('an empty feed is valid', () => {
    expectValid(buildWzdxFeed([], feedInfo, NOW));
  });

  it.each(Object.entries(excluded))('leaves out: %s', (_name, closure) => {
    expect(wzdxEventStatus(closure, NOW)).toBeNull();
    expect(buildWzdxFeed([closure], feedInfo, NOW).features).toEqual([]);
  });

  it('feed_info', () => {
    const feed = buildWzdxFeed([], feedInfo, NOW + 123);
    expect(feed.type).toBe('FeatureCollection');
    expect(feed.feed_info).toEqual({
      ...feedInfo,
      update_date: '2026-11-22T12:00:00Z',
      version: '4.2',
      license: 'https://creativecommons.org/publicdomain/zero/1.0/',
    });
  });

  it('maps a manual active closure field by field', () => {
    const [f] = buildWzdxFeed([base], feedInfo, NOW).features;
    expect(f).toEqual({
      id: 'wz-manual-1',
      type: 'Feature',
      properties: {
        core_details: {
          data_source_id: 'ds-org1',
          event_type: 'work-zone',
          road_names: ['Colfax Ave', 'Broadway'],
          direction: 'northbound',
          description: 'Bridge deck repair',
          update_date: '2026-11-22T12:00:00Z',
          related_road_events: [{ type: 'related-work-zone', id: 'project-7' }],
        },
        start_date: wzdxDate(NOW - HOUR_MS), // the last start
        end_date: '2026-11-24T12:00:00Z',
        is_start_date_verified: true,
        is_end_date_verified: false,
        is_start_position_verified: false,
        is_end_position_verified: false,
        vehicle_impact: 'some-lanes-closed',
        location_method: 'channel-device-method',
        work_zone_type: 'static',
        event_status: 'active',
        lanes: [
          { order: 1, status: 'closed', type: 'general' },
          { order: 2, status: 'closed', type: 'general' },
        ],
      },
      geometry: {
        type: 'LineString',
        coordinates: [
          [-104.9902519, 39.7392358],
          [-104.99, 39.74],
          [-104.98, 39.75],
        ],
      },
    });
  });

  it('a scheduled closure is planned from its start, unverified', () => {
    const [f] = buildWzdxFeed([closures['scheduled']!], feedInfo, NOW).features;
    expect(f?.properties).toMatchObject({
      event_status: 'planned',
      start_date: '2026-11-23T12:00:00Z',
      end_date: '2026-11-25T12:00:00Z',
      is_start_date_verified: false,
    });
    expect(f?.properties.core_details.road_names).toEqual(['I-25']);
    expect(f?.properties.core_details.direction).toBe('westbound');
  });

  it('an open-ended closure ends at the 3-month limit; all-lanes-open gets no lanes; a missing location method is unknown', () => {
    const [f] = buildWzdxFeed([closures['noEndTime']!], feedInfo, NOW).features;
    expect(f?.properties.end_date).toBe(wzdxDate(closureEndLimit(NOW)));
    expect(f?.properties.end_date).toBe('2027-02-22T12:00:00Z');
    expect(f?.properties.is_end_date_verified).toBe(false);
    expect(f?.properties).not.toHaveProperty('lanes');
    expect(f?.properties.location_method).toBe('unknown');
  });

  it('an automated closure with no streets, direction or start', () => {
    const [f] = buildWzdxFeed([closures['automated']!], feedInfo, NOW).features;
    expect(f?.properties.core_details.road_names).toEqual(['Unknown']);
    expect(f?.properties.core_details.direction).toBe('unknown');
    expect(f?.properties.start_date).toBe('2026-11-22T12:00:00Z');
    expect(f?.properties).not.toHaveProperty('lanes');
    expect(f?.properties.core_details).not.toHaveProperty('related_road_events');
  });

  it('an unknown vehicle impact becomes unknown; a blank description is left out', () => {
    const [f] = buildWzdxFeed([closures['eastbound']!], feedInfo, NOW).features;
    expect(f?.properties.vehicle_impact).toBe('unknown');
    expect(f?.properties.core_details).not.toHaveProperty('description');
  });

  it.each([
    ['N', 'northbound'],
    ['E', 'eastbound'],
    ['S', 'southbound'],
    ['W', 'westbound'],
    [null, 'unknown'],
  ] as const)('direction %s → %s satisfies Direction.json', (direction, expected) => {
    const mapped = toWzdxDirection(direction);
    expect(mapped).toBe(expected);
    expect(WZDX_DIRECTIONS).toContain(mapped);
    expect(validateDirection(mapped)).toBe(true);
  });

  it('Direction.json rejects a compass letter', () => {
    expect(validateDirection('N')).toBe(false);
  });

  it.each([
    [0, '1970-01-01T00:00:00Z'],
    [Date.parse('2026-11-22T12:00:00.999Z'), '2026-11-22T12:00:00Z'],
  ])('wzdxDate(%s) = %s', (ms, iso) => {
    expect(wzdxDate(ms)).toBe(iso);
  });
});

describe('WZDx validator rejects broken feeds', () => {
  const good = (): WorkZoneFeed => buildWzdxFeed([base], feedInfo, NOW);
  type Breaker = (feed: Record<string, unknown> & WorkZoneFeed) => void;
  it.each<[string, Breaker]>([
    ['no feed_info', (f) => void delete (f as Partial<WorkZoneFeed>).feed_info],
    ['version not major.minor', (f) => void (f.feed_info.version = '4')],
    ['no data sources', (f) => void ((f.feed_info as { data_sources: unknown[] }).data_sources = [])],
    ['update_date not a date-time', (f) => void (f.feed_info.update_date = '22/11/2026')],
    ['no vehicle_impact', (f) => void delete (f.features[0]!.properties as unknown as Record<string, unknown>)['vehicle_impact']],
    ['direction "N"', (f) => void ((f.features[0]!.properties.core_details as { direction: string }).direction = 'N')],
    ['empty road_names', (f) => void ((f.features[0]!.properties.core_details as { road_names: string[] }).road_names = [])],
    ['one-point LineString', (f) => void (f.features[0]!.geometry.coordinates = [[0, 0]])],
    ['lane order 0', (f) => void (f.features[0]!.properties.lanes![0]!.order = 0)],
    [
      'no start date verification',
      (f) => void delete (f.features[0]!.properties as unknown as Record<string, unknown>)['is_start_date_verified'],
    ],
    ['wrong type', (f) => void ((f as { type: string }).type = 'Feature')],
  ])('%s', (_name, breakIt) => {
    const feed = structuredClone(good()) as Record<string, unknown> & WorkZoneFeed;
    expectValid(structuredClone(feed));
    breakIt(feed);
    expect(validateFeed(feed)).toBe(false);
  });
});

describe('WZDx values as words on screen (the feed keeps the codes)', () => {
  it.each([
    ['all-lanes-open-shift-left', 'All lanes open, shift left'],
    ['some-lanes-closed-split', 'Some lanes closed, split'],
    ['channel-device-method', 'Channel device method'],
    ['flagging', 'Flagging'],
  ])('%s → %s', (value, label) => {
    expect(wzdxValueLabel(value)).toBe(label);
  });
});

describe("the domain's WZDx enumerations are the official schema's (the feed's answer schema and the screens read them)", () => {
  const definitions = (readJson(SCHEMA_DIR + 'RoadEventFeature.json') as { definitions: Record<string, { enum?: string[] }> }).definitions;
  it.each([
    ['VehicleImpact', WZDX_VEHICLE_IMPACTS],
    ['LocationMethod', WZDX_LOCATION_METHODS],
    ['EventStatus', WZDX_EVENT_STATUSES],
    ['WorkZoneType', WZDX_WORK_ZONE_TYPES],
    ['LaneStatus', WZDX_LANE_STATUSES],
    ['LaneType', WZDX_LANE_TYPES],
    ['RelatedRoadEventType', WZDX_RELATED_ROAD_EVENT_TYPES],
  ] as const)('%s', (name, values) => {
    expect([...values]).toEqual(definitions[name]?.enum);
  });

  it('Direction', () => {
    expect([...WZDX_DIRECTIONS]).toEqual((readJson(SCHEMA_DIR + 'Direction.json') as { enum: string[] }).enum);
  });
});
