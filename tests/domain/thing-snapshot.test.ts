import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromThingWire } from '../../src/domain/asset';
import { ASSET_STATUS } from '../../src/domain/asset-status';
import {
  THING_SNAPSHOT_COLUMNS,
  thingSnapshotSchema,
  thingWiresFromSnapshot,
  type ThingSnapshotAnswer,
} from '../../src/domain/thing-snapshot';

const ORG = { id: 'org-1', name: 'Metro Police', organization_type: null };
const META = { total: 1, server_timestamp: '2026-11-22T12:00:00.000Z' };

/** One row with every column set, as the server writes it (the database's ISO text for times). */
function row(overrides: Partial<Record<(typeof THING_SNAPSHOT_COLUMNS)[number], unknown>> = {}): unknown[] {
  const values: Record<string, unknown> = {
    id: 'thing-1',
    haas_id: 'ha5-0001',
    nickname: 'Unit 1',
    heartbeat_datetime: '2026-11-22T11:59:30.123456+00:00',
    updated_at: '2026-11-22T11:59:31+00:00',
    thing_type: 'police',
    thing_type_id: 'type-police',
    thing_subtype: 'patrol',
    thing_subtype_id: 'subtype-patrol',
    organization_id: ORG.id,
    in_service: true,
    is_publicly_alerting: true,
    enroute: true,
    lat: 30.27,
    lng: -97.74,
    accuracy: 4.5,
    course: 90,
    speed: 12,
    street: 'Lamar Blvd',
    station_id: null,
    location_id: null,
    run_id: 'run-1',
    run_start_time: '2026-11-22T11:50:00+00:00',
    run_points_count: 40,
    is_r2r_enabled: true,
    is_test_mode_on: false,
    is_allowed_for_test_mode: true,
    is_allowed_for_closures: false,
    is_responder: true,
    device_type: 'ha5',
    feed_subscriptions: ['wzdx'],
    vin_number: 'VIN1',
    license_plate_number: 'TX 1',
    registry_number: null,
    external_id: null,
    ...overrides,
  };
  return THING_SNAPSHOT_COLUMNS.map((column) => values[column]);
}

function answer(rows: unknown[][], organizations = [ORG]): ThingSnapshotAnswer {
  return thingSnapshotSchema.parse({ columns: THING_SNAPSHOT_COLUMNS, rows, organizations, meta: { ...META, total: rows.length } });
}

describe('the fleet snapshot (README "Spec decisions")', () => {
  it('reads each row into a thing wire: its columns, its organization from the answer, the left-out fields empty', () => {
    const [wire] = thingWiresFromSnapshot(answer([row()]));
    expect(wire).toMatchObject({
      id: 'thing-1',
      haas_id: 'ha5-0001',
      nickname: 'Unit 1',
      thing_type: 'police',
      thing_subtype_id: 'subtype-patrol',
      enroute: true,
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
  });

  it('an organization the answer does not name leaves the wire without one; an empty answer has no wires', () => {
    expect(thingWiresFromSnapshot(answer([row({ organization_id: 'org-unknown' })]))[0]!.organization).toBeNull();
    expect(thingWiresFromSnapshot(answer([]))).toEqual([]);
  });

  it("refuses another version's columns and names the row and the column of a cell that does not read", () => {
    const other = { ...answer([row()]), columns: [...THING_SNAPSHOT_COLUMNS].reverse() };
    expect(() => thingWiresFromSnapshot(other)).toThrow(/columns are not this version's/);
    expect(() => thingWiresFromSnapshot(answer([row(), row({ lat: 'north' })]))).toThrow(
      'fleet snapshot row 1: lat does not read ("north")',
    );
    expect(() => thingWiresFromSnapshot(answer([row({ enroute: null })]))).toThrow('fleet snapshot row 0: enroute does not read (null)');
    expect(() => thingWiresFromSnapshot(answer([row({ heartbeat_datetime: 'yesterday' })]))).toThrow(/heartbeat_datetime does not read/);
    expect(() => thingWiresFromSnapshot(answer([row({ id: '' })]))).toThrow(/row 0: id does not read/);
    expect(() => thingWiresFromSnapshot(answer([row().slice(1)]))).toThrow(
      `fleet snapshot row 0: ${THING_SNAPSHOT_COLUMNS.length - 1} cells`,
    );
    expect(() => thingSnapshotSchema.parse({ columns: THING_SNAPSHOT_COLUMNS, rows: [{}], organizations: [], meta: META })).toThrow(
      /a row is an array of cells/,
    );
  });

  it('property: a cell of another kind than its column reads is refused, never read into a wire', () => {
    // The wire schema's rule for each field (src/domain/asset.ts), restated.
    const required = new Set(['id', 'haas_id', 'organization_id']);
    const flags = new Set(['in_service', 'is_publicly_alerting', 'enroute', 'is_r2r_enabled', 'is_test_mode_on']);
    for (const column of ['is_allowed_for_test_mode', 'is_allowed_for_closures', 'is_responder']) flags.add(column);
    const numbers = new Set(['lat', 'lng', 'accuracy', 'course', 'speed', 'run_points_count']);
    const times = new Set(['heartbeat_datetime', 'updated_at', 'run_start_time']);
    const reads = (column: string, value: unknown): boolean => {
      if (required.has(column)) return typeof value === 'string' && value !== '';
      if (flags.has(column)) return typeof value === 'boolean';
      if (column === 'feed_subscriptions') return Array.isArray(value) && value.every((v) => typeof v === 'string');
      if (value === null) return true;
      if (numbers.has(column)) return typeof value === 'number' && Number.isFinite(value);
      if (times.has(column)) return typeof value === 'string' && !Number.isNaN(Date.parse(value));
      return typeof value === 'string';
    };
    const values = fc.constantFrom<unknown>('text', '', '2026-11-22T12:00:00Z', 7.5, true, null, [], ['a'], [1], { a: 1 }, Number.NaN);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: THING_SNAPSHOT_COLUMNS.length - 1 }), values, (index, value) => {
        const cells = row();
        cells[index] = value;
        const column = THING_SNAPSHOT_COLUMNS[index]!;
        if (reads(column, value)) expect(thingWiresFromSnapshot(answer([cells]))).toHaveLength(1);
        else expect(() => thingWiresFromSnapshot(answer([cells]))).toThrow(`fleet snapshot row 0: ${column} does not read`);
      }),
      { numRuns: 400 },
    );
  });
});
