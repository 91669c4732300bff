/**
 * The fleet snapshot, GET /organization/things/snapshot (README "Spec decisions"): every asset of
 * GET /organization/things (same scope, same `org_ids[]`, no paging) in one answer, each asset a
 * row of the scalar wire fields below instead of a wide object, and its organization named once in
 * `organizations`. The live worker's full load of a fleet larger than one page reads it first, so
 * the map, the Live list, the status counts, the filters and the search hold every asset from one
 * call; the full wires (part 1 §7 pages) then replace each asset with what the snapshot leaves
 * out: its integrations, external identifiers, active closures, organization relationships,
 * incident times and runtime.
 *
 * Answer: `{ columns: THING_SNAPSHOT_COLUMNS, rows: [[...], ...], organizations: [{id, name,
 * organization_type}], meta: { total, server_timestamp } }`.
 */
import { z } from 'zod';
import { thingOrganizationWireSchema, type ThingWire } from './asset';
import { isoDateTime, parseTime } from './time';

/**
 * What each cell of a row holds: `id` a string; `text`, `time` (ISO 8601), `number` the same or
 * null; `flag` a boolean; `ids` an array of strings. The wire schema's rule for the field, checked
 * with `typeof` per cell: a zod tuple per row took about 1 s for 100,000 rows, as long as the rest
 * of the load (README "Application bench").
 */
type CellKind = 'id' | 'text' | 'time' | 'number' | 'flag' | 'ids';

/**
 * The row's columns in order: wire field names, and `organization_id` (the id of one of the
 * answer's `organizations`).
 */
const COLUMNS = {
  id: 'id',
  haas_id: 'id',
  nickname: 'text',
  heartbeat_datetime: 'time',
  updated_at: 'time',
  thing_type: 'text',
  thing_type_id: 'text',
  thing_subtype: 'text',
  thing_subtype_id: 'text',
  organization_id: 'id',
  in_service: 'flag',
  is_publicly_alerting: 'flag',
  enroute: 'flag',
  lat: 'number',
  lng: 'number',
  accuracy: 'number',
  course: 'number',
  speed: 'number',
  street: 'text',
  station_id: 'text',
  location_id: 'text',
  run_id: 'text',
  run_start_time: 'time',
  run_points_count: 'number',
  is_r2r_enabled: 'flag',
  is_test_mode_on: 'flag',
  is_allowed_for_test_mode: 'flag',
  is_allowed_for_closures: 'flag',
  is_responder: 'flag',
  device_type: 'text',
  feed_subscriptions: 'ids',
  vin_number: 'text',
  license_plate_number: 'text',
  registry_number: 'text',
  external_id: 'text',
} as const satisfies Record<string, CellKind>;
export type ThingSnapshotColumn = keyof typeof COLUMNS;
export const THING_SNAPSHOT_COLUMNS = Object.keys(COLUMNS) as ThingSnapshotColumn[];
const KINDS: readonly CellKind[] = THING_SNAPSHOT_COLUMNS.map((column) => COLUMNS[column]);
/** Each column's place in a row. */
const at = Object.fromEntries(THING_SNAPSHOT_COLUMNS.map((column, i) => [column, i])) as Record<ThingSnapshotColumn, number>;

function cellReads(kind: CellKind, value: unknown): boolean {
  switch (kind) {
    case 'id':
      return typeof value === 'string' && value !== '';
    case 'text':
      return value === null || typeof value === 'string';
    case 'time':
      return value === null || (typeof value === 'string' && parseTime(value) !== null);
    case 'number':
      return value === null || (typeof value === 'number' && Number.isFinite(value));
    case 'flag':
      return typeof value === 'boolean';
    case 'ids':
      return Array.isArray(value) && value.every((item) => typeof item === 'string');
  }
}

export const thingSnapshotSchema = z.object({
  columns: z.array(z.string()),
  // Each row's cells are checked by `thingWiresFromSnapshot` (a zod schema per cell cost 1 s).
  rows: z.array(z.custom<unknown[]>(Array.isArray, { error: 'a row is an array of cells' })),
  organizations: z.array(thingOrganizationWireSchema),
  meta: z.object({ total: z.number().int().min(0), server_timestamp: isoDateTime }),
});
export type ThingSnapshotAnswer = z.infer<typeof thingSnapshotSchema>;

/**
 * The thing wires of a snapshot answer, each with the fields the snapshot leaves out at their
 * empty values (no integrations, identifiers, active closures or relationships; no incident times
 * or runtime). Throws when the columns are not THING_SNAPSHOT_COLUMNS (another server version) or
 * a cell does not read (the message names the row and the column).
 */
export function thingWiresFromSnapshot(answer: ThingSnapshotAnswer): ThingWire[] {
  const { columns, rows } = answer;
  if (columns.length !== THING_SNAPSHOT_COLUMNS.length || columns.some((column, i) => column !== THING_SNAPSHOT_COLUMNS[i])) {
    throw new Error(`the fleet snapshot's columns are not this version's (${columns.join(', ')})`);
  }
  const organizations = new Map(answer.organizations.map((organization) => [organization.id, organization]));
  const out: ThingWire[] = new Array<ThingWire>(rows.length);
  for (let r = 0; r < rows.length; r += 1) {
    const v = rows[r]!;
    if (v.length !== KINDS.length) throw new Error(`fleet snapshot row ${r}: ${v.length} cells, not ${KINDS.length}`);
    for (let c = 0; c < KINDS.length; c += 1) {
      if (!cellReads(KINDS[c]!, v[c]))
        throw new Error(`fleet snapshot row ${r}: ${THING_SNAPSHOT_COLUMNS[c]} does not read (${JSON.stringify(v[c])})`);
    }
    // One object literal (a fixed shape): filled key by key from the column list, V8 kept each
    // wire as a dictionary, 0.43 s for 100,000 rows.
    const thing: ThingWire = {
      id: v[at.id] as string,
      haas_id: v[at.haas_id] as string,
      nickname: v[at.nickname] as string | null,
      heartbeat_datetime: v[at.heartbeat_datetime] as string | null,
      updated_at: v[at.updated_at] as string | null,
      thing_type: v[at.thing_type] as string | null,
      thing_type_id: v[at.thing_type_id] as string | null,
      thing_subtype: v[at.thing_subtype] as string | null,
      thing_subtype_id: v[at.thing_subtype_id] as string | null,
      in_service: v[at.in_service] as boolean,
      is_publicly_alerting: v[at.is_publicly_alerting] as boolean,
      enroute: v[at.enroute] as boolean,
      status: null,
      lat: v[at.lat] as number | null,
      lng: v[at.lng] as number | null,
      accuracy: v[at.accuracy] as number | null,
      course: v[at.course] as number | null,
      speed: v[at.speed] as number | null,
      street: v[at.street] as string | null,
      station_id: v[at.station_id] as string | null,
      location_id: v[at.location_id] as string | null,
      incident_start_time: null,
      incident_end_time: null,
      run_id: v[at.run_id] as string | null,
      run_start_time: v[at.run_start_time] as string | null,
      run_points_count: v[at.run_points_count] as number | null,
      runtime: null,
      is_r2r_enabled: v[at.is_r2r_enabled] as boolean,
      is_test_mode_on: v[at.is_test_mode_on] as boolean,
      is_allowed_for_test_mode: v[at.is_allowed_for_test_mode] as boolean,
      is_allowed_for_closures: v[at.is_allowed_for_closures] as boolean,
      is_responder: v[at.is_responder] as boolean,
      is_integration_org: false,
      device_type: v[at.device_type] as string | null,
      feed_subscriptions: v[at.feed_subscriptions] as string[],
      integrations: [],
      external_identifiers: [],
      active_closures: [],
      organization: organizations.get(v[at.organization_id] as string) ?? null,
      organization_relationships: [],
      vin_number: v[at.vin_number] as string | null,
      license_plate_number: v[at.license_plate_number] as string | null,
      registry_number: v[at.registry_number] as string | null,
      external_id: v[at.external_id] as string | null,
    };
    out[r] = thing;
  }
  return out;
}
