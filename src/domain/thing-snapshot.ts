/**
 * The fleet snapshot, GET /organization/things/snapshot (docs/decisions/spec.md): every asset of
 * GET /organization/things (same scope, same `org_ids[]`, no paging) in one answer, each asset a
 * row of the scalar wire fields below instead of a wide object, and its organization named once in
 * `organizations`. The live worker's full load of a fleet larger than one page reads it first, so
 * the map, the Live list, the status counts, the filters and the search hold every asset from one
 * call. What a row leaves out comes in `details`, only where an asset has any: its external
 * identifiers, active closures, organization relationships and incident times, and each
 * organization's integrations; its runtime follows from its run's start and the answer's time.
 * With them every wire is whole and the load ends there; an answer without `details` (another
 * server version) leaves each asset's details to the full wires of part 1 §7's pages.
 *
 * Answer: `{ columns: THING_SNAPSHOT_COLUMNS, flags: THING_SNAPSHOT_FLAGS, rows: [[...], ...],
 * organizations: [{id, name, organization_type}], types: [{id, name}], subtypes: [{id, name}],
 * details: { integrations, external_identifiers, organization_relationships, active_closures,
 * incidents }, meta: { total, server_timestamp } }`. A row names its organization, type and subtype by their
 * place in those lists and holds its eight flags as one number (bit i: THING_SNAPSHOT_FLAGS[i]),
 * so a row of 100,000 carries no uuid but its own and the ones it links to (station, incident,
 * run): about a third fewer bytes to make, send and read than the wire fields themselves.
 *
 * Since a time (`?since=`, docs/decisions/spec.md "The fleet snapshot since a time"): the same
 * answer over the assets changed after it only (their rows, their organizations, their details),
 * and `meta.deleted_ids`, the ids of the assets deleted since; `meta.total` counts the rows. The
 * 15 s poll of a large organization reads it instead of the list's pages (part 1 §7).
 */
import { z } from 'zod';
import { integrationWireSchema, RELATIONSHIP_TYPES, thingOrganizationWireSchema, type ThingWire } from './asset';
import { isoDateTime, secondsBetween } from './time';

/**
 * What each cell of a row holds: `id` a string; `text`, `number` the same or null; `time` the
 * whole milliseconds it lies before the answer's `meta.server_timestamp` (negative after it), or
 * null: 4 to 10 digits instead of the 34 characters of the ISO text, a fifth of a moved asset's
 * row (docs/decisions/spec.md "The fleet snapshot since a time"), read back into the wire's ISO
 * 8601 time to the millisecond as the list's pages give it; `flags` a whole number of
 * THING_SNAPSHOT_FLAGS' bits; `organization`, `type`, `subtype` the place of one of the answer's
 * lists (or null: no subtype); `ids` an array of strings. The wire schema's rule for the field,
 * checked with `typeof` per cell: a zod tuple per row took about 1 s for 100,000 rows, as long as
 * the rest of the load (bench/README.md "Application bench").
 */
type CellKind = 'id' | 'text' | 'time' | 'number' | 'flags' | 'organization' | 'type' | 'subtype' | 'ids';

/** The wire's boolean fields, in the order of their bits in a row's `flags` (bit 0 first). */
export const THING_SNAPSHOT_FLAGS = [
  'in_service',
  'is_publicly_alerting',
  'enroute',
  'is_r2r_enabled',
  'is_test_mode_on',
  'is_allowed_for_test_mode',
  'is_allowed_for_closures',
  'is_responder',
] as const;
export type ThingSnapshotFlag = (typeof THING_SNAPSHOT_FLAGS)[number];
const FLAG_LIMIT = 2 ** THING_SNAPSHOT_FLAGS.length;
/** Each flag's bit. */
export const THING_SNAPSHOT_FLAG_BIT = Object.fromEntries(THING_SNAPSHOT_FLAGS.map((flag, i) => [flag, 2 ** i])) as Record<
  ThingSnapshotFlag,
  number
>;

/**
 * The row's columns in order: wire field names, and `organization` (the place of the asset's
 * organization in the answer's `organizations`), `thing_type` / `thing_subtype` (in `types` /
 * `subtypes`: the wire's name and id), `flags` (its booleans).
 */
const COLUMNS = {
  id: 'id',
  haas_id: 'id',
  nickname: 'text',
  heartbeat_datetime: 'time',
  updated_at: 'time',
  thing_type: 'type',
  thing_subtype: 'subtype',
  organization: 'organization',
  flags: 'flags',
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
  device_type: 'text',
  feed_subscriptions: 'ids',
  vin_number: 'text',
  license_plate_number: 'text',
  registry_number: 'text',
  external_id: 'text',
  /** The profile's edit counter (its form's If-Match, lost updates). */
  version: 'number',
} as const satisfies Record<string, CellKind>;
export type ThingSnapshotColumn = keyof typeof COLUMNS;
export const THING_SNAPSHOT_COLUMNS = Object.keys(COLUMNS) as ThingSnapshotColumn[];
const KINDS: readonly CellKind[] = THING_SNAPSHOT_COLUMNS.map((column) => COLUMNS[column]);
/** The columns whose cells are times (milliseconds before the answer's server_timestamp). */
export const THING_SNAPSHOT_TIME_COLUMNS: ReadonlySet<ThingSnapshotColumn> = new Set(
  THING_SNAPSHOT_COLUMNS.filter((column) => COLUMNS[column] === 'time'),
);
/** Each column's place in a row. */
const at = Object.fromEntries(THING_SNAPSHOT_COLUMNS.map((column, i) => [column, i])) as Record<ThingSnapshotColumn, number>;

const isPlace = (value: unknown, length: number): boolean =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) < length;

function cellReads(kind: CellKind, value: unknown, lists: Lists): boolean {
  switch (kind) {
    case 'id':
      return typeof value === 'string' && value !== '';
    case 'text':
      return value === null || typeof value === 'string';
    case 'time':
      return value === null || Number.isSafeInteger(value);
    case 'number':
      return value === null || (typeof value === 'number' && Number.isFinite(value));
    case 'flags':
      return isPlace(value, FLAG_LIMIT);
    case 'organization':
      return isPlace(value, lists.organizations.length);
    case 'type':
      return value === null || isPlace(value, lists.types.length);
    case 'subtype':
      return value === null || isPlace(value, lists.subtypes.length);
    case 'ids':
      return Array.isArray(value) && value.every((item) => typeof item === 'string');
  }
}

/** A type or subtype of the answer's lists: the wire's id and name. */
const namedSchema = z.object({ id: z.string().min(1), name: z.string() });
export type ThingSnapshotNamed = z.infer<typeof namedSchema>;

const idSchema = z.string().min(1);
const timeOrNull = isoDateTime.nullable();

/**
 * What the rows leave out, only where an asset has any (a few entries in most fleets), each entry
 * naming its asset by id, each list in the order the asset's full wire has it:
 * - `integrations`: per organization, in the order of `organizations`, its integrations (`[{name, id}]`, by name);
 * - `external_identifiers`: `[thing_id, identifier_id, system_name]`, by system name;
 * - `organization_relationships`: `[thing_id, organization_uuid, organization_name, relationship_type]`, by organization name;
 * - `active_closures`: `[thing_id, closure_id, wzdx_id]`, the automated closures running on the asset, by closure id;
 * - `incidents`: `[thing_id, incident_start_time, incident_end_time]`, the asset's times on its current incident.
 */
const detailsSchema = z.object({
  integrations: z.array(z.array(integrationWireSchema)),
  external_identifiers: z.array(z.tuple([idSchema, z.string(), z.string()])),
  organization_relationships: z.array(z.tuple([idSchema, idSchema, z.string(), z.enum(RELATIONSHIP_TYPES)])),
  active_closures: z.array(z.tuple([idSchema, idSchema, z.string().nullable()])),
  incidents: z.array(z.tuple([idSchema, timeOrNull, timeOrNull])),
});
export type ThingSnapshotDetails = z.infer<typeof detailsSchema>;

export const thingSnapshotSchema = z.object({
  columns: z.array(z.string()),
  flags: z.array(z.string()),
  // Each row's cells are checked by `thingWiresFromSnapshot` (a zod schema per cell cost 1 s).
  rows: z.array(z.custom<unknown[]>(Array.isArray, { error: 'a row is an array of cells' })),
  organizations: z.array(thingOrganizationWireSchema),
  types: z.array(namedSchema),
  subtypes: z.array(namedSchema),
  /** Absent: an answer without them (another server version); its assets' details come with the pages. */
  details: detailsSchema.optional(),
  meta: z.object({
    total: z.number().int().min(0),
    server_timestamp: isoDateTime,
    /** Only in an answer since a time (`since`): the ids of the assets deleted after it, as the list's meta.deleted_ids. */
    deleted_ids: z.array(idSchema).optional(),
  }),
});
export type ThingSnapshotAnswer = z.infer<typeof thingSnapshotSchema>;
type Lists = Pick<ThingSnapshotAnswer, 'organizations' | 'types' | 'subtypes'>;

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((item, i) => item === b[i]);

/** Whether the answer carries its assets' details: its wires are then whole, and no page needs to follow. */
export const snapshotIsComplete = (answer: ThingSnapshotAnswer): boolean => answer.details !== undefined;

/** Each asset's entries of one details list, in the list's order. */
function byThing<T extends readonly unknown[], V>(entries: readonly T[], value: (entry: T) => V): Map<string, V[]> {
  const out = new Map<string, V[]>();
  for (const entry of entries) {
    const id = entry[0] as string;
    const list = out.get(id);
    if (list) list.push(value(entry));
    else out.set(id, [value(entry)]);
  }
  return out;
}

/** The answer's details by asset, for the one pass over the rows; `unmatched`: the assets they name, struck off as rows come. */
function detailsByThing(answer: ThingSnapshotAnswer, details: ThingSnapshotDetails) {
  if (details.integrations.length !== answer.organizations.length) {
    throw new Error(
      `fleet snapshot details: integrations for ${details.integrations.length} organizations, not ${answer.organizations.length}`,
    );
  }
  const lists = {
    external_identifiers: byThing(details.external_identifiers, ([, identifier_id, system_name]) => ({ identifier_id, system_name })),
    organization_relationships: byThing(
      details.organization_relationships,
      ([, organization_uuid, organization_name, relationship_type]) => ({
        organization_uuid,
        organization_name,
        relationship_type,
      }),
    ),
    active_closures: byThing(details.active_closures, ([, id, wzdx_id]) => ({ id, wzdx_id })),
    incidents: new Map(details.incidents.map(([id, start, end]) => [id, { start, end }])),
  };
  const unmatched = new Set(Object.values(lists).flatMap((list) => [...list.keys()]));
  return { ...lists, integrations: details.integrations, unmatched };
}

/**
 * The thing wires of a snapshot answer. With `details` each wire is whole but for `status` (the
 * client works it out); without, the fields the snapshot leaves out are at their empty values (no
 * integrations, identifiers, active closures or relationships; no incident times or runtime).
 * Throws when the columns or the flags are not this version's (another server version), a cell
 * does not read (the message names the row and the column), or a detail names an asset or an
 * organization the answer lacks.
 */
export function thingWiresFromSnapshot(answer: ThingSnapshotAnswer): ThingWire[] {
  const { columns, rows, organizations, types, subtypes } = answer;
  if (!sameList(columns, THING_SNAPSHOT_COLUMNS) || !sameList(answer.flags, THING_SNAPSHOT_FLAGS)) {
    throw new Error(`the fleet snapshot's columns are not this version's (${columns.join(', ')}; flags ${answer.flags.join(', ')})`);
  }
  const d = answer.details ? detailsByThing(answer, answer.details) : null;
  const stamp = Date.parse(answer.meta.server_timestamp);
  /** A time cell as the wire's ISO text (to the millisecond, as the pages). */
  const time = (cell: unknown): string | null => (cell === null ? null : new Date(stamp - (cell as number)).toISOString());
  const out: ThingWire[] = new Array<ThingWire>(rows.length);
  for (let r = 0; r < rows.length; r += 1) {
    const v = rows[r]!;
    if (v.length !== KINDS.length) throw new Error(`fleet snapshot row ${r}: ${v.length} cells, not ${KINDS.length}`);
    for (let c = 0; c < KINDS.length; c += 1) {
      if (!cellReads(KINDS[c]!, v[c], answer))
        throw new Error(`fleet snapshot row ${r}: ${THING_SNAPSHOT_COLUMNS[c]} does not read (${JSON.stringify(v[c])})`);
    }
    const type = v[at.thing_type] === null ? null : types[v[at.thing_type] as number]!;
    const subtype = v[at.thing_subtype] === null ? null : subtypes[v[at.thing_subtype] as number]!;
    const flags = v[at.flags] as number;
    const id = v[at.id] as string;
    const place = v[at.organization] as number;
    d?.unmatched.delete(id);
    // The full wire's incident times are those of the asset's current incident (its location_id).
    const incident = d && v[at.location_id] ? d.incidents.get(id) : undefined;
    const integrations = d ? d.integrations[place]! : [];
    // One object literal (a fixed shape): filled key by key from the column list, V8 kept each
    // wire as a dictionary, 0.43 s for 100,000 rows.
    const thing: ThingWire = {
      id,
      haas_id: v[at.haas_id] as string,
      nickname: v[at.nickname] as string | null,
      heartbeat_datetime: time(v[at.heartbeat_datetime]),
      updated_at: time(v[at.updated_at]),
      thing_type: type?.name ?? null,
      thing_type_id: type?.id ?? null,
      thing_subtype: subtype?.name ?? null,
      thing_subtype_id: subtype?.id ?? null,
      in_service: (flags & THING_SNAPSHOT_FLAG_BIT.in_service) !== 0,
      is_publicly_alerting: (flags & THING_SNAPSHOT_FLAG_BIT.is_publicly_alerting) !== 0,
      enroute: (flags & THING_SNAPSHOT_FLAG_BIT.enroute) !== 0,
      status: null,
      lat: v[at.lat] as number | null,
      lng: v[at.lng] as number | null,
      accuracy: v[at.accuracy] as number | null,
      course: v[at.course] as number | null,
      speed: v[at.speed] as number | null,
      street: v[at.street] as string | null,
      station_id: v[at.station_id] as string | null,
      location_id: v[at.location_id] as string | null,
      incident_start_time: incident?.start ?? null,
      incident_end_time: incident?.end ?? null,
      run_id: v[at.run_id] as string | null,
      run_start_time: time(v[at.run_start_time]),
      run_points_count: v[at.run_points_count] as number | null,
      runtime: d && v[at.run_id] && v[at.run_start_time] !== null ? secondsBetween(stamp - (v[at.run_start_time] as number), stamp) : null,
      is_r2r_enabled: (flags & THING_SNAPSHOT_FLAG_BIT.is_r2r_enabled) !== 0,
      is_test_mode_on: (flags & THING_SNAPSHOT_FLAG_BIT.is_test_mode_on) !== 0,
      is_allowed_for_test_mode: (flags & THING_SNAPSHOT_FLAG_BIT.is_allowed_for_test_mode) !== 0,
      is_allowed_for_closures: (flags & THING_SNAPSHOT_FLAG_BIT.is_allowed_for_closures) !== 0,
      is_responder: (flags & THING_SNAPSHOT_FLAG_BIT.is_responder) !== 0,
      is_integration_org: integrations.length > 0,
      device_type: v[at.device_type] as string | null,
      feed_subscriptions: v[at.feed_subscriptions] as string[],
      integrations,
      external_identifiers: d?.external_identifiers.get(id) ?? [],
      active_closures: d?.active_closures.get(id) ?? [],
      organization: organizations[place]!,
      organization_relationships: d?.organization_relationships.get(id) ?? [],
      version: v[at.version] as number | null,
      vin_number: v[at.vin_number] as string | null,
      license_plate_number: v[at.license_plate_number] as string | null,
      registry_number: v[at.registry_number] as string | null,
      external_id: v[at.external_id] as string | null,
    };
    out[r] = thing;
  }
  if (d && d.unmatched.size > 0) {
    const [id] = d.unmatched;
    const list = (['external_identifiers', 'organization_relationships', 'active_closures', 'incidents'] as const).find((name) =>
      d[name].has(id!),
    );
    throw new Error(`fleet snapshot details: ${list} names asset ${id}, not one of its rows`);
  }
  return out;
}

/**
 * The snapshot answer of these wires, as the server writes it (the inverse of
 * `thingWiresFromSnapshot`): for clients and servers that hold wires rather than rows, such as the
 * tests' fake server. `details: false` answers as a server without them. An organization's
 * integrations are those of its first wire. A wire without an organization, or with a type or
 * subtype name but not its id, cannot be a row (the server's wires have both) and throws.
 */
export function thingSnapshotFromWires(wires: readonly ThingWire[], serverTimestamp: string, details = true): ThingSnapshotAnswer {
  const stamp = Date.parse(serverTimestamp);
  const organizations: ThingSnapshotAnswer['organizations'] = [];
  const types: ThingSnapshotNamed[] = [];
  const subtypes: ThingSnapshotNamed[] = [];
  const placeIn = (list: { id: string }[], item: { id: string }): number => {
    const found = list.findIndex((entry) => entry.id === item.id);
    return found >= 0 ? found : list.push(item) - 1;
  };
  const named = (id: string | null | undefined, name: string | null | undefined, thing: string) => {
    if (!id && name) throw new Error(`thing ${thing} names a type or subtype (${name}) without its id`);
    return id ? { id, name: name ?? '' } : null;
  };
  const rows = wires.map((wire) => {
    if (!wire.organization) throw new Error(`thing ${wire.id} has no organization`);
    const type = named(wire.thing_type_id, wire.thing_type, wire.id);
    const subtype = named(wire.thing_subtype_id, wire.thing_subtype, wire.id);
    // The four columns that are not wire fields; every other column is the wire's field itself.
    const derived: Partial<Record<ThingSnapshotColumn, unknown>> = {
      thing_type: type ? placeIn(types, type) : null,
      thing_subtype: subtype ? placeIn(subtypes, subtype) : null,
      organization: placeIn(organizations, wire.organization),
      flags: THING_SNAPSHOT_FLAGS.reduce((sum, flag) => sum + (wire[flag] ? THING_SNAPSHOT_FLAG_BIT[flag] : 0), 0),
    };
    const fields = wire as unknown as Record<string, unknown>;
    return THING_SNAPSHOT_COLUMNS.map((column) => {
      if (column in derived) return derived[column];
      const value = fields[column] ?? null;
      return THING_SNAPSHOT_TIME_COLUMNS.has(column) && value !== null ? stamp - Date.parse(value as string) : value;
    });
  });
  const integrations = organizations.map(
    (organization) =>
      wires.find((wire) => wire.organization?.id === organization.id)?.integrations.map(({ name, id }) => ({ name, id })) ?? [],
  );
  const all = <T>(list: (wire: ThingWire) => T[]): T[] => wires.flatMap(list);
  return {
    columns: THING_SNAPSHOT_COLUMNS,
    flags: [...THING_SNAPSHOT_FLAGS],
    rows,
    organizations,
    types,
    subtypes,
    ...(details && {
      details: {
        integrations,
        external_identifiers: all((w) =>
          w.external_identifiers.map((e): [string, string, string] => [w.id, e.identifier_id, e.system_name]),
        ),
        organization_relationships: all((w) =>
          w.organization_relationships.map((r): ThingSnapshotDetails['organization_relationships'][number] => [
            w.id,
            r.organization_uuid,
            r.organization_name,
            r.relationship_type,
          ]),
        ),
        active_closures: all((w) => w.active_closures.map((c): [string, string, string | null] => [w.id, c.id, c.wzdx_id ?? null])),
        incidents: all((w): [string, string | null, string | null][] =>
          w.location_id && (w.incident_start_time || w.incident_end_time)
            ? [[w.id, w.incident_start_time ?? null, w.incident_end_time ?? null]]
            : [],
        ),
      },
    }),
    meta: { total: rows.length, server_timestamp: serverTimestamp },
  };
}
