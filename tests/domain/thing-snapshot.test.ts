import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromThingWire } from '../../src/domain/asset';
import { ASSET_STATUS } from '../../src/domain/asset-status';
import type { ThingWire } from '../../src/domain/asset';
import {
  snapshotIsComplete,
  THING_SNAPSHOT_COLUMNS,
  THING_SNAPSHOT_FLAGS,
  thingSnapshotFromWires,
  thingSnapshotSchema,
  thingWiresFromSnapshot,
  type ThingSnapshotAnswer,
} from '../../src/domain/thing-snapshot';

const ORG = { id: 'org-1', name: 'Metro Police', organization_type: null };
const OTHER_ORG = {
  id: 'org-2',
  name: 'County Fire',
  organization_type: { id: 'ot-1', name: 'Fire', acs: false, icon_urls: { marker: 'fire.svg' } },
};
const TYPES = [
  { id: 'type-fire', name: 'fire' },
  { id: 'type-police', name: 'police' },
];
const SUBTYPES = [{ id: 'subtype-patrol', name: 'patrol' }];
const META = { total: 1, server_timestamp: '2026-11-22T12:00:00.000Z' };
const FLAGS = [...THING_SNAPSHOT_FLAGS];

/**
 * One row with every column set, as the server writes it: a time as the whole milliseconds before
 * the answer's server_timestamp (12:00:00.000), the database's microseconds dropped.
 */
function row(overrides: Partial<Record<(typeof THING_SNAPSHOT_COLUMNS)[number], unknown>> = {}): unknown[] {
  const values: Record<string, unknown> = {
    id: 'thing-1',
    haas_id: 'ha5-0001',
    nickname: 'Unit 1',
    // 11:59:30.123(456) and 11:59:31.
    heartbeat_datetime: 29_877,
    updated_at: 29_000,
    thing_type: 1,
    thing_subtype: 0,
    organization: 0,
    // in_service, is_publicly_alerting, enroute, is_r2r_enabled, is_allowed_for_test_mode, is_responder
    flags: 1 + 2 + 4 + 8 + 32 + 128,
    lat: 30.27,
    lng: -97.74,
    accuracy: 4.5,
    course: 90,
    speed: 12,
    street: 'Lamar Blvd',
    station_id: null,
    location_id: null,
    run_id: 'run-1',
    // 11:50:00.
    run_start_time: 600_000,
    run_points_count: 40,
    device_type: 'ha5',
    feed_subscriptions: ['wzdx'],
    vin_number: 'VIN1',
    license_plate_number: 'TX 1',
    registry_number: null,
    external_id: null,
    version: 3,
    ...overrides,
  };
  return THING_SNAPSHOT_COLUMNS.map((column) => values[column]);
}

function answer(rows: unknown[][], organizations = [ORG, OTHER_ORG], details?: unknown): ThingSnapshotAnswer {
  return thingSnapshotSchema.parse({
    columns: THING_SNAPSHOT_COLUMNS,
    flags: FLAGS,
    rows,
    organizations,
    types: TYPES,
    subtypes: SUBTYPES,
    ...(details !== undefined && { details }),
    meta: { ...META, total: rows.length },
  });
}

/** A thing wire as the pages send it, every field the snapshot carries drawn at random. */
const text = fc.option(fc.string({ maxLength: 12 }), { nil: null });
const time = fc.option(
  fc.integer({ min: Date.parse('2020-01-01T00:00:00Z'), max: Date.parse('2030-01-01T00:00:00Z') }).map((ms) => new Date(ms).toISOString()),
  { nil: null },
);
// JSON has no -0: `+ 0` makes it 0, as the database's numbers are.
const number = fc.option(
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map((value) => value + 0),
  { nil: null },
);
const wireArb = fc.record({
  id: fc.uuid(),
  haas_id: fc.string({ minLength: 1, maxLength: 12 }),
  nickname: text,
  heartbeat_datetime: time,
  updated_at: time,
  type: fc.option(fc.constantFrom(...TYPES), { nil: null }),
  subtype: fc.option(fc.constantFrom(...SUBTYPES), { nil: null }),
  organization: fc.constantFrom(ORG, OTHER_ORG),
  flags: fc.tuple(...THING_SNAPSHOT_FLAGS.map(() => fc.boolean())),
  lat: number,
  lng: number,
  accuracy: number,
  course: number,
  speed: number,
  street: text,
  station_id: text,
  location_id: text,
  run_id: text,
  run_start_time: time,
  run_points_count: fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: null }),
  device_type: text,
  feed_subscriptions: fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }),
  vin_number: text,
  license_plate_number: text,
  registry_number: text,
  external_id: text,
  version: fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: null }),
  // The details: the full wire's lists and incident times.
  external_identifiers: fc.array(
    fc.record({ identifier_id: fc.string({ maxLength: 8 }), system_name: fc.constantFrom('samsara', 'geotab') }),
    {
      maxLength: 2,
    },
  ),
  organization_relationships: fc.array(
    fc.record({
      organization_uuid: fc.uuid(),
      organization_name: fc.string({ maxLength: 8 }),
      relationship_type: fc.constantFrom('manager' as const, 'accessor' as const),
    }),
    { maxLength: 2 },
  ),
  active_closures: fc.array(fc.record({ id: fc.uuid(), wzdx_id: fc.option(fc.string({ maxLength: 8 }), { nil: null }) }), { maxLength: 2 }),
  incident_start_time: time,
  incident_end_time: time,
});
/** Each organization's integrations (the same on every wire of the organization). */
const integrationsArb = fc.array(fc.record({ name: fc.constantFrom('samsara', 'geotab'), id: fc.uuid() }), { maxLength: 2 });
type Drawn = typeof wireArb extends fc.Arbitrary<infer T> ? T : never;
type Integrations = typeof integrationsArb extends fc.Arbitrary<infer T> ? T : never;
function wireOf(drawn: Drawn, integrationsOf: Record<string, Integrations>): ThingWire {
  const { type, subtype, flags, incident_start_time, incident_end_time, ...rest } = drawn;
  const integrations = integrationsOf[drawn.organization.id]!;
  // Ids are never empty on the server's wires; the reader goes by truthiness as the server does.
  const onIncident = Boolean(drawn.location_id);
  return {
    ...rest,
    ...Object.fromEntries(THING_SNAPSHOT_FLAGS.map((flag, i) => [flag, flags[i]])),
    thing_type: type?.name ?? null,
    thing_type_id: type?.id ?? null,
    thing_subtype: subtype?.name ?? null,
    thing_subtype_id: subtype?.id ?? null,
    status: null,
    // The server's full wire: incident times only on an incident, a runtime only on a run (whole
    // seconds from its start to the answer's time, never negative).
    incident_start_time: onIncident ? incident_start_time : null,
    incident_end_time: onIncident ? incident_end_time : null,
    runtime:
      drawn.run_id && drawn.run_start_time
        ? Math.max(0, Math.floor((Date.parse(META.server_timestamp) - Date.parse(drawn.run_start_time)) / 1000))
        : null,
    is_integration_org: integrations.length > 0,
    integrations,
  } as unknown as ThingWire;
}

/** A wire as an answer without details reads: the details at their empty values. */
function withoutDetails(wire: ThingWire): ThingWire {
  return {
    ...wire,
    incident_start_time: null,
    incident_end_time: null,
    runtime: null,
    is_integration_org: false,
    integrations: [],
    external_identifiers: [],
    active_closures: [],
    organization_relationships: [],
  };
}

describe('the fleet snapshot (README "Spec decisions")', () => {
  it('reads each row into a thing wire: its columns, its organization, type and subtype from the answer, its flags, the left-out fields empty', () => {
    const [wire] = thingWiresFromSnapshot(answer([row()]));
    expect(wire).toMatchObject({
      id: 'thing-1',
      haas_id: 'ha5-0001',
      nickname: 'Unit 1',
      thing_type: 'police',
      thing_type_id: 'type-police',
      thing_subtype: 'patrol',
      thing_subtype_id: 'subtype-patrol',
      in_service: true,
      is_publicly_alerting: true,
      enroute: true,
      is_r2r_enabled: true,
      is_test_mode_on: false,
      is_allowed_for_test_mode: true,
      is_allowed_for_closures: false,
      is_responder: true,
      lat: 30.27,
      lng: -97.74,
      run_points_count: 40,
      feed_subscriptions: ['wzdx'],
      organization: ORG,
      integrations: [],
      external_identifiers: [],
      active_closures: [],
      organization_relationships: [],
      is_integration_org: false,
      runtime: null,
    });
    // The client model reads it: enroute and heard 30 s ago → active; microseconds are dropped.
    const asset = fromThingWire(wire!, Date.parse('2026-11-22T12:00:00Z'))!;
    expect(asset.status).toBe(ASSET_STATUS.active);
    expect(asset.heartbeatTime).toBe(Date.parse('2026-11-22T11:59:30.123Z'));
    expect(asset.searchText).toContain('vin1');
    const [other] = thingWiresFromSnapshot(answer([row({ organization: 1, thing_type: 0, thing_subtype: null, flags: 0 })]));
    expect(other).toMatchObject({
      organization: OTHER_ORG,
      thing_type: 'fire',
      thing_subtype: null,
      thing_subtype_id: null,
      in_service: false,
    });
    expect(thingWiresFromSnapshot(answer([]))).toEqual([]);
  });

  it('property: the answer of any wires reads back into the same wires; without details, into the same wires with their details empty', () => {
    fc.assert(
      fc.property(fc.array(wireArb, { maxLength: 8 }), integrationsArb, integrationsArb, (drawn, ofOrg, ofOther) => {
        const wires = drawn.map((one) => wireOf(one, { [ORG.id]: ofOrg, [OTHER_ORG.id]: ofOther }));
        // As it travels: JSON text, read by the same schema as the server's answer.
        const travel = (value: ThingSnapshotAnswer) => thingSnapshotSchema.parse(JSON.parse(JSON.stringify(value)));
        const encoded = travel(thingSnapshotFromWires(wires, META.server_timestamp));
        expect(snapshotIsComplete(encoded)).toBe(true);
        expect(thingWiresFromSnapshot(encoded)).toEqual(wires);
        expect(encoded.organizations.length).toBe(new Set(wires.map((wire) => wire.organization!.id)).size);
        const narrow = travel(thingSnapshotFromWires(wires, META.server_timestamp, false));
        expect(snapshotIsComplete(narrow)).toBe(false);
        expect(thingWiresFromSnapshot(narrow)).toEqual(wires.map(withoutDetails));
      }),
      { numRuns: 200 },
    );
  });

  it("fills each asset's details from the answer's: its lists, its current incident's times, its run's runtime, its organization's integrations", () => {
    const geotab = { name: 'geotab', id: 'int-1' };
    const read = thingWiresFromSnapshot(
      answer([row({ location_id: 'loc-1' }), row({ id: 'thing-2', organization: 1, run_id: null })], [ORG, OTHER_ORG], {
        integrations: [[geotab], []],
        external_identifiers: [
          ['thing-1', 'G-1', 'geotab'],
          ['thing-1', 'S-1', 'samsara'],
        ],
        organization_relationships: [['thing-2', 'org-9', 'Tow Co', 'accessor']],
        active_closures: [['thing-1', 'closure-1', null]],
        // An entry of an asset off any incident is not its incident's: thing-2 has no location.
        incidents: [
          ['thing-1', '2026-11-22T11:40:00.000001+00:00', null],
          ['thing-2', '2026-11-22T11:00:00Z', '2026-11-22T11:30:00Z'],
        ],
      }),
    );
    expect(read[0]).toMatchObject({
      integrations: [geotab],
      is_integration_org: true,
      external_identifiers: [
        { identifier_id: 'G-1', system_name: 'geotab' },
        { identifier_id: 'S-1', system_name: 'samsara' },
      ],
      organization_relationships: [],
      active_closures: [{ id: 'closure-1', wzdx_id: null }],
      incident_start_time: '2026-11-22T11:40:00.000001+00:00',
      incident_end_time: null,
      // The run began at 11:50:00, the answer is of 12:00:00.
      runtime: 600,
    });
    expect(read[1]).toMatchObject({
      integrations: [],
      is_integration_org: false,
      external_identifiers: [],
      organization_relationships: [{ organization_uuid: 'org-9', organization_name: 'Tow Co', relationship_type: 'accessor' }],
      active_closures: [],
      incident_start_time: null,
      incident_end_time: null,
      runtime: null,
    });
    // The client model: the running closure and the incident make their statuses, as the full wire's would.
    const asset = fromThingWire(read[0]!, Date.parse(META.server_timestamp))!;
    expect(asset.activeClosures).toEqual([{ id: 'closure-1', wzdxId: null }]);
    expect(asset.incidentStartTime).toBe(Date.parse('2026-11-22T11:40:00.000Z'));
  });

  it("refuses another version's columns or flags and names the row and the column of a cell that does not read", () => {
    const other = { ...answer([row()]), columns: [...THING_SNAPSHOT_COLUMNS].reverse() };
    expect(() => thingWiresFromSnapshot(other)).toThrow(/columns are not this version's/);
    expect(() => thingWiresFromSnapshot({ ...answer([row()]), flags: [...FLAGS].reverse() })).toThrow(/columns are not this version's/);
    expect(() => thingWiresFromSnapshot(answer([row(), row({ lat: 'north' })]))).toThrow(
      'fleet snapshot row 1: lat does not read ("north")',
    );
    expect(() => thingWiresFromSnapshot(answer([row({ flags: null })]))).toThrow('fleet snapshot row 0: flags does not read (null)');
    expect(() => thingWiresFromSnapshot(answer([row({ flags: 256 })]))).toThrow('fleet snapshot row 0: flags does not read (256)');
    expect(() => thingWiresFromSnapshot(answer([row({ organization: 2 })]))).toThrow(
      'fleet snapshot row 0: organization does not read (2)',
    );
    expect(() => thingWiresFromSnapshot(answer([row({ thing_type: 2 })]))).toThrow('fleet snapshot row 0: thing_type does not read (2)');
    expect(() => thingWiresFromSnapshot(answer([row({ thing_subtype: -1 })]))).toThrow(/row 0: thing_subtype does not read/);
    expect(() => thingWiresFromSnapshot(answer([row({ heartbeat_datetime: 'yesterday' })]))).toThrow(/heartbeat_datetime does not read/);
    expect(() => thingWiresFromSnapshot(answer([row({ id: '' })]))).toThrow(/row 0: id does not read/);
    expect(() => thingWiresFromSnapshot(answer([row().slice(1)]))).toThrow(
      `fleet snapshot row 0: ${THING_SNAPSHOT_COLUMNS.length - 1} cells`,
    );
    // Details that name an asset or an organization the answer lacks: the answer does not read.
    const none = { integrations: [[], []], external_identifiers: [], organization_relationships: [], active_closures: [], incidents: [] };
    expect(() =>
      thingWiresFromSnapshot(answer([row()], [ORG, OTHER_ORG], { ...none, active_closures: [['thing-9', 'c-1', null]] })),
    ).toThrow('fleet snapshot details: active_closures names asset thing-9, not one of its rows');
    expect(() => thingWiresFromSnapshot(answer([row()], [ORG, OTHER_ORG], { ...none, integrations: [[]] }))).toThrow(
      'fleet snapshot details: integrations for 1 organizations, not 2',
    );
    expect(() =>
      answer([row()], [ORG, OTHER_ORG], { ...none, organization_relationships: [['thing-1', 'org-9', 'Tow Co', 'owner']] }),
    ).toThrow();
    expect(() =>
      thingSnapshotSchema.parse({
        columns: THING_SNAPSHOT_COLUMNS,
        flags: FLAGS,
        rows: [{}],
        organizations: [],
        types: [],
        subtypes: [],
        meta: META,
      }),
    ).toThrow(/a row is an array of cells/);
  });

  it('property: a cell of another kind than its column reads is refused, never read into a wire', () => {
    // The wire schema's rule for each field (src/domain/asset.ts), restated; the places are of
    // the answer's two organizations, two types and one subtype, the flags eight bits.
    const required = new Set(['id', 'haas_id']);
    const places: Record<string, { length: number; nullable: boolean }> = {
      organization: { length: 2, nullable: false },
      thing_type: { length: 2, nullable: true },
      thing_subtype: { length: 1, nullable: true },
      flags: { length: 256, nullable: false },
    };
    const numbers = new Set(['lat', 'lng', 'accuracy', 'course', 'speed', 'run_points_count', 'version']);
    const times = new Set(['heartbeat_datetime', 'updated_at', 'run_start_time']);
    const reads = (column: string, value: unknown): boolean => {
      if (required.has(column)) return typeof value === 'string' && value !== '';
      const place = places[column];
      if (place)
        return (
          (place.nullable && value === null) || (Number.isInteger(value) && (value as number) >= 0 && (value as number) < place.length)
        );
      if (column === 'feed_subscriptions') return Array.isArray(value) && value.every((v) => typeof v === 'string');
      if (value === null) return true;
      if (numbers.has(column)) return typeof value === 'number' && Number.isFinite(value);
      if (times.has(column)) return Number.isSafeInteger(value);
      return typeof value === 'string';
    };
    const values = fc.constantFrom<unknown>(
      'text',
      '',
      '2026-11-22T12:00:00Z',
      7.5,
      0,
      1,
      2,
      255,
      256,
      -1,
      true,
      null,
      [],
      ['a'],
      [1],
      { a: 1 },
      Number.NaN,
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: THING_SNAPSHOT_COLUMNS.length - 1 }), values, (index, value) => {
        const cells = row();
        cells[index] = value;
        const column = THING_SNAPSHOT_COLUMNS[index]!;
        if (reads(column, value)) expect(thingWiresFromSnapshot(answer([cells]))).toHaveLength(1);
        else expect(() => thingWiresFromSnapshot(answer([cells]))).toThrow(`fleet snapshot row 0: ${column} does not read`);
      }),
      { numRuns: 600 },
    );
  });
});
