/**
 * Database rows → the thing wire object of src/domain/asset.ts (`thingWireSchema`), for
 * GET /organization/things, the PUT /things answers, and later the socket and ingest.
 *
 * One call loads any number of things with a fixed number of queries (the things with their type,
 * subtype, organization and organization type in one, each row one JSON text; then external identifiers, asset relations,
 * active automated closures, the current incident rows and the owners' integrations, each batched
 * over every id), so a page of 500 costs six queries, never one per asset.
 *
 * The status is the domain's `computeAssetStatus` at `now` (docs/decisions/spec.md "kept or recomputed"), sent as
 * the server string; `is_stale` is sent beside it (the wire schema does not read it; the client
 * recomputes both).
 */
import { and, eq, isNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { computeAssetStatus, isStale, statusToServer } from '../../src/domain/asset-status';
import type { ThingWireInput, RelationshipType } from '../../src/domain/asset';
import {
  THING_SNAPSHOT_COLUMNS,
  THING_SNAPSHOT_FLAG_BIT,
  THING_SNAPSHOT_FLAGS,
  THING_SNAPSHOT_TIME_COLUMNS,
  type ThingSnapshotColumn,
  type ThingSnapshotFlag,
} from '../../src/domain/thing-snapshot';
import { secondsBetween } from '../../src/domain/time';
import type { Db } from '../db/connection';
import { anyUuid, jsonRowReader, queryRows } from '../db/rows';
import {
  closures,
  integrationConfigurations,
  locationThings,
  organizations,
  organizationTypes,
  thingExternalIdentifiers,
  thingRelationships,
  things,
  thingSubtypes,
  thingTypes,
} from '../db/schema';

/** The wire object as the server writes it: the schema's input plus `is_stale`. */
export type ThingWireOut = ThingWireInput & { is_stale: boolean };

const iso = (date: Date | null | undefined): string | null => (date ? date.toISOString() : null);

/** A thing with the names the wire shows beside it (its type, subtype, organization and organization type). */
interface JoinedThing {
  thing: typeof things.$inferSelect;
  typeName: string;
  subtypeName: string | null;
  orgName: string;
  orgType: { id: string; name: string; acs: boolean; iconUrl: string | null } | null;
}

/** A things row read as JSON (the wires' main query). */
const thingFromJson = jsonRowReader(things);

/** The key an organization type's single icon url travels under in `icon_urls`. */
export const ORGANIZATION_ICON_KEY = 'marker';

/** part 1 §4: an asset's active closures are the automated closures running on it. */
const RUNNING_ON_ASSET = and(eq(closures.closureType, 'automated'), eq(closures.isActive, true), isNull(closures.deletedAt))!;
/** The asset's row on its current incident (its location_id), for incident start and end. */
const ON_CURRENT_INCIDENT = eq(things.locationId, locationThings.locationId);

function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return out;
}

/** The `organization` of a thing wire: its id, name and type. */
function organizationWire(id: string, name: string, orgType: JoinedThing['orgType']): NonNullable<ThingWireInput['organization']> {
  return {
    id,
    name,
    organization_type: orgType
      ? {
          id: orgType.id,
          name: orgType.name,
          acs: orgType.acs,
          icon_urls: orgType.iconUrl ? { [ORGANIZATION_ICON_KEY]: orgType.iconUrl } : {},
        }
      : null,
  };
}

/**
 * The wire objects of the given things, in the order of `ids` (unknown ids are skipped; soft-deleted
 * things are included, callers filter). Visibility is the caller's business.
 */
export async function loadThingWires(db: Db, ids: readonly string[], now: Date): Promise<ThingWireOut[]> {
  if (ids.length === 0) return [];
  const idList = [...new Set(ids)];
  // One JSON text per row (the thing, its type and organization): PGlite parses a wide row column by
  // column, which made this read most of a page of 5,000 (jsonRowReader).
  const rows = (
    await queryRows<{ row: string }>(
      db,
      sql`select json_build_object(
            'thing', row_to_json(${things}),
            'typeName', ${thingTypes.name},
            'subtypeName', ${thingSubtypes.name},
            'orgName', ${organizations.name},
            'orgType', case when ${organizationTypes.id} is null then null else json_build_object(
              'id', ${organizationTypes.id}, 'name', ${organizationTypes.name}, 'acs', ${organizationTypes.acs}, 'iconUrl', ${organizationTypes.iconUrl}
            ) end
          )::text as row
          from ${things}
          inner join ${thingTypes} on ${thingTypes.id} = ${things.thingTypeId}
          left join ${thingSubtypes} on ${thingSubtypes.id} = ${things.thingSubtypeId}
          inner join ${organizations} on ${organizations.id} = ${things.organizationId}
          left join ${organizationTypes} on ${organizationTypes.id} = ${organizations.organizationTypeId}
          where ${anyUuid(things.id, idList)}`,
    )
  ).map(({ row }) => {
    const parsed = JSON.parse(row) as Omit<JoinedThing, 'thing'> & { thing: Record<string, unknown> };
    return { ...parsed, thing: thingFromJson(parsed.thing) } satisfies JoinedThing;
  });
  if (rows.length === 0) return [];
  const orgIds = [...new Set(rows.map((row) => row.thing.organizationId))];

  const [identifiers, relations, activeClosures, incidents, integrations] = await Promise.all([
    db
      .select({
        thingId: thingExternalIdentifiers.thingId,
        identifierId: thingExternalIdentifiers.identifierId,
        systemName: thingExternalIdentifiers.systemName,
      })
      .from(thingExternalIdentifiers)
      .where(anyUuid(thingExternalIdentifiers.thingId, idList))
      .orderBy(thingExternalIdentifiers.systemName, thingExternalIdentifiers.identifierId),
    db
      .select({
        thingId: thingRelationships.thingId,
        organizationId: thingRelationships.organizationId,
        relationshipType: thingRelationships.relationshipType,
        organizationName: organizations.name,
      })
      .from(thingRelationships)
      .innerJoin(organizations, eq(organizations.id, thingRelationships.organizationId))
      .where(anyUuid(thingRelationships.thingId, idList))
      .orderBy(organizations.name, thingRelationships.organizationId),
    db
      .select({ id: closures.id, thingId: closures.thingId, wzdxId: closures.externalId })
      .from(closures)
      .where(and(anyUuid(closures.thingId, idList), RUNNING_ON_ASSET))
      .orderBy(closures.id),
    db
      .select({ thingId: locationThings.thingId, startTime: locationThings.startTime, endTime: locationThings.endTime })
      .from(locationThings)
      .innerJoin(things, and(eq(things.id, locationThings.thingId), ON_CURRENT_INCIDENT))
      .where(anyUuid(locationThings.thingId, idList)),
    db
      .select({
        id: integrationConfigurations.id,
        organizationId: integrationConfigurations.organizationId,
        provider: integrationConfigurations.provider,
      })
      .from(integrationConfigurations)
      .where(anyUuid(integrationConfigurations.organizationId, orgIds))
      .orderBy(integrationConfigurations.provider, integrationConfigurations.id),
  ]);

  const identifiersBy = groupBy(identifiers, (row) => row.thingId);
  const relationsBy = groupBy(relations, (row) => row.thingId);
  const closuresBy = groupBy(activeClosures, (row) => row.thingId);
  const incidentBy = new Map(incidents.map((row) => [row.thingId, row]));
  const integrationsBy = groupBy(integrations, (row) => row.organizationId);
  const byId = new Map(rows.map((row) => [row.thing.id, row]));
  const nowMs = now.getTime();

  const out: ThingWireOut[] = [];
  for (const id of idList) {
    const row = byId.get(id);
    if (!row) continue;
    const { thing, orgType } = row;
    const active = (closuresBy.get(id) ?? []).map((c) => ({ id: c.id, wzdx_id: c.wzdxId }));
    const heartbeatTime = thing.heartbeatAt ? thing.heartbeatAt.getTime() : null;
    const status = computeAssetStatus(
      { heartbeatTime, enroute: thing.enroute, street: thing.street, isOnIncident: thing.locationId !== null, activeClosures: active },
      nowMs,
    );
    const incident = thing.locationId ? incidentBy.get(id) : undefined;
    const orgIntegrations = integrationsBy.get(thing.organizationId) ?? [];
    out.push({
      id: thing.id,
      haas_id: thing.haasId,
      nickname: thing.nickname,
      heartbeat_datetime: iso(thing.heartbeatAt),
      updated_at: iso(thing.updatedAt),
      version: thing.version,
      thing_type: row.typeName,
      thing_type_id: thing.thingTypeId,
      thing_subtype: row.subtypeName,
      thing_subtype_id: thing.thingSubtypeId,
      in_service: thing.inService,
      is_publicly_alerting: thing.isPubliclyAlerting,
      enroute: thing.enroute,
      status: statusToServer(status),
      is_stale: isStale(heartbeatTime, nowMs),
      lat: thing.lat,
      lng: thing.lng,
      accuracy: thing.accuracy,
      course: thing.course,
      speed: thing.speed,
      street: thing.street,
      station_id: thing.stationId,
      location_id: thing.locationId,
      incident_start_time: iso(incident?.startTime),
      incident_end_time: iso(incident?.endTime),
      run_id: thing.runId,
      run_start_time: iso(thing.runStartTime),
      run_points_count: thing.runId ? thing.runPointsCount : null,
      runtime: thing.runId ? secondsBetween(thing.runStartTime, now) : null,
      is_r2r_enabled: thing.isR2rEnabled,
      is_test_mode_on: thing.isTestModeOn,
      is_allowed_for_test_mode: thing.isAllowedForTestMode,
      is_allowed_for_closures: thing.isAllowedForClosures,
      is_responder: thing.isResponder,
      is_integration_org: orgIntegrations.length > 0,
      device_type: thing.deviceType,
      feed_subscriptions: thing.feedSubscriptions,
      integrations: orgIntegrations.map((i) => ({ name: i.provider, id: i.id })),
      external_identifiers: (identifiersBy.get(id) ?? []).map((e) => ({ identifier_id: e.identifierId, system_name: e.systemName })),
      active_closures: active,
      organization: organizationWire(thing.organizationId, row.orgName, orgType),
      organization_relationships: (relationsBy.get(id) ?? []).map((r) => ({
        organization_uuid: r.organizationId,
        organization_name: r.organizationName,
        relationship_type: r.relationshipType satisfies RelationshipType,
      })),
      vin_number: thing.vinNumber,
      license_plate_number: thing.licensePlateNumber,
      registry_number: thing.registryNumber,
      external_id: thing.externalId,
    });
  }
  return out;
}

/** One thing's wire object, or null when the id is unknown. */
export async function loadThingWire(db: Db, id: string, now: Date): Promise<ThingWireOut | null> {
  const [wire] = await loadThingWires(db, [id], now);
  return wire ?? null;
}

/** A boolean column as its flag bit in a snapshot row (src/domain/thing-snapshot.ts). */
const flagBit = (column: AnyColumn, flag: ThingSnapshotFlag): SQL =>
  sql`(case when ${column} then ${sql.raw(String(THING_SNAPSHOT_FLAG_BIT[flag]))} else 0 end)`;

/** Each flag of a snapshot row as its things column. */
const SNAPSHOT_FLAG_COLUMNS: Record<ThingSnapshotFlag, AnyColumn> = {
  in_service: things.inService,
  is_publicly_alerting: things.isPubliclyAlerting,
  enroute: things.enroute,
  is_r2r_enabled: things.isR2rEnabled,
  is_test_mode_on: things.isTestModeOn,
  is_allowed_for_test_mode: things.isAllowedForTestMode,
  is_allowed_for_closures: things.isAllowedForClosures,
  is_responder: things.isResponder,
};

/**
 * Each column of the fleet snapshot (src/domain/thing-snapshot.ts) as SQL over the things row and
 * the places of its organization, type and subtype in the answer's lists (`snapshot_owner`,
 * `snapshot_type`, `snapshot_subtype` of `thingSnapshotJson`), with the value the full wire sends
 * (run_points_count only on a run).
 */
const SNAPSHOT_SQL: Record<ThingSnapshotColumn, SQL> = {
  id: sql`${things.id}`,
  haas_id: sql`${things.haasId}`,
  nickname: sql`${things.nickname}`,
  heartbeat_datetime: sql`${things.heartbeatAt}`,
  updated_at: sql`${things.updatedAt}`,
  version: sql`${things.version}`,
  thing_type: sql`snapshot_type.place`,
  thing_subtype: sql`snapshot_subtype.place`,
  organization: sql`snapshot_owner.place`,
  flags: sql.join(
    THING_SNAPSHOT_FLAGS.map((flag) => flagBit(SNAPSHOT_FLAG_COLUMNS[flag], flag)),
    sql` + `,
  ),
  lat: sql`${things.lat}`,
  lng: sql`${things.lng}`,
  accuracy: sql`${things.accuracy}`,
  course: sql`${things.course}`,
  speed: sql`${things.speed}`,
  street: sql`${things.street}`,
  station_id: sql`${things.stationId}`,
  location_id: sql`${things.locationId}`,
  run_id: sql`${things.runId}`,
  run_start_time: sql`${things.runStartTime}`,
  run_points_count: sql`case when ${things.runId} is null then null else ${things.runPointsCount} end`,
  device_type: sql`${things.deviceType}`,
  feed_subscriptions: sql`${things.feedSubscriptions}`,
  vin_number: sql`${things.vinNumber}`,
  license_plate_number: sql`${things.licensePlateNumber}`,
  registry_number: sql`${things.registryNumber}`,
  external_id: sql`${things.externalId}`,
};

/**
 * GET /organization/things/snapshot's answer as JSON text (src/domain/thing-snapshot.ts): the rows
 * of the things `where` selects, made by the database as one JSON array (read as one text value,
 * never a row object per asset: 100,000 assets in about 1 s on PGlite, against 7 s for their full
 * wires), the organizations they belong to, and every thing type and subtype (reference data, as
 * GET /thing_types), each row naming its own by their places. One statement makes the rows and
 * the three lists' orders, so a row never names a place the answer lacks. Visibility is the
 * caller's `where`. `deletedIds`: the answer of an incremental snapshot (`since`, the assets
 * changed after it in `where`), whose meta names the visible assets deleted since
 * (docs/decisions/spec.md "The fleet snapshot since a time").
 */
export async function thingSnapshotJson(
  db: Db,
  where: SQL | undefined,
  now: Date,
  deletedIds: readonly string[] | null = null,
): Promise<string> {
  const visible = where ?? sql`true`;
  // A time cell: the whole milliseconds before the answer's server_timestamp (now, to the
  // millisecond), from the time's millisecond as the pages write it (toISOString drops the
  // microseconds): extract gives the exact numeric.
  const stamp = sql.raw(String(now.getTime()));
  const cells = sql.join(
    THING_SNAPSHOT_COLUMNS.map((column) =>
      THING_SNAPSHOT_TIME_COLUMNS.has(column)
        ? sql`(${stamp} - floor(extract(epoch from ${SNAPSHOT_SQL[column]}) * 1000))::bigint`
        : SNAPSHOT_SQL[column],
    ),
    sql`, `,
  );
  // The places by window functions over small tables joined by hash: 100,000 rows in 0.83 s on
  // PGlite; joined to unnest(...) with ordinality of the listed ids, 1.6 s.
  const placed = (table: SQL, order: SQL) => sql`select id, name, (row_number() over (order by ${order})) - 1 as place from ${table}`;
  // The details (src/domain/thing-snapshot.ts), in the same statement as the rows so that each
  // names one of them, in the orders of `loadThingWires`; sparse: only assets that have any. Each
  // detail row finds its asset by its key (a subquery per row): joined, the planner scanned the
  // whole fleet once per list, 1.2 s more at 100,000 assets with no detail at all.
  const visibleThing = (alias: SQL, also: SQL = sql`true`) =>
    sql`where coalesce((select ${visible} and ${also} from ${things} where ${things.id} = ${alias}.thing_id), false)`;
  const listOf = (cells: SQL, order: SQL, from: SQL) =>
    sql`(select coalesce(json_agg(json_build_array(${cells}) order by ${order}), '[]'::json)::text from ${from})`;
  const [answer] = await queryRows<{
    rows: string;
    total: number;
    owners: string[] | null;
    types: string | null;
    subtypes: string | null;
    integrations: string;
    identifiers: string;
    relationships: string;
    closures: string;
    incidents: string;
  }>(
    db,
    sql`with snapshot_owner as (
          select owner.id, (row_number() over (order by owner.id)) - 1 as place
          from (select distinct ${things.organizationId} as id from ${things} where ${visible}) as owner
        ),
        snapshot_type as (${placed(sql`${thingTypes}`, sql`name, id`)}),
        snapshot_subtype as (${placed(sql`${thingSubtypes}`, sql`name, id`)})
        select (select json_agg(snapshot_owner.id order by snapshot_owner.place) from snapshot_owner) as owners,
          (select json_agg(json_build_object('id', id, 'name', name) order by place)::text from snapshot_type) as types,
          (select json_agg(json_build_object('id', id, 'name', name) order by place)::text from snapshot_subtype) as subtypes,
          (select coalesce(json_agg(coalesce((
              select json_agg(json_build_object('name', ic.provider, 'id', ic.id) order by ic.provider, ic.id)
              from ${integrationConfigurations} ic where ic.organization_id = snapshot_owner.id
            ), '[]'::json) order by snapshot_owner.place), '[]'::json)::text from snapshot_owner) as integrations,
          ${listOf(sql`e.thing_id, e.identifier_id, e.system_name`, sql`e.thing_id, e.system_name, e.identifier_id`, sql`${thingExternalIdentifiers} e ${visibleThing(sql`e`)}`)} as identifiers,
          ${listOf(
            sql`r.thing_id, r.organization_id, o.name, r.relationship_type`,
            sql`r.thing_id, o.name, r.organization_id`,
            sql`${thingRelationships} r inner join ${organizations} o on o.id = r.organization_id ${visibleThing(sql`r`)}`,
          )} as relationships,
          ${listOf(
            sql`${closures.thingId}, ${closures.id}, ${closures.externalId}`,
            sql`${closures.thingId}, ${closures.id}`,
            sql`${closures} ${visibleThing(sql`${closures}`)} and ${RUNNING_ON_ASSET}`,
          )} as closures,
          ${listOf(
            sql`${locationThings.thingId}, ${locationThings.startTime}, ${locationThings.endTime}`,
            sql`${locationThings.thingId}`,
            sql`${locationThings} ${visibleThing(sql`${locationThings}`, ON_CURRENT_INCIDENT)}`,
          )} as incidents,
          made.rows, made.total
        from (
          select coalesce(json_agg(json_build_array(${cells})), '[]'::json)::text as rows, count(*)::int as total
          from ${things}
          inner join snapshot_owner on snapshot_owner.id = ${things.organizationId}
          inner join snapshot_type on snapshot_type.id = ${things.thingTypeId}
          left join snapshot_subtype on snapshot_subtype.id = ${things.thingSubtypeId}
          where ${visible}
        ) as made`,
  );
  const ownerIds = answer?.owners ?? [];
  const orgs =
    ownerIds.length === 0
      ? []
      : await db
          .select({
            id: organizations.id,
            name: organizations.name,
            typeId: organizationTypes.id,
            typeName: organizationTypes.name,
            acs: organizationTypes.acs,
            iconUrl: organizationTypes.iconUrl,
          })
          .from(organizations)
          .leftJoin(organizationTypes, eq(organizationTypes.id, organizations.organizationTypeId))
          .where(anyUuid(organizations.id, ownerIds));
  const byId = new Map(orgs.map((o) => [o.id, o]));
  const organizationsOut = ownerIds.map((id) => {
    // An owner is a row of organizations (a foreign key): found.
    const o = byId.get(id)!;
    return organizationWire(o.id, o.name, o.typeId === null ? null : { id: o.typeId, name: o.typeName!, acs: o.acs!, iconUrl: o.iconUrl });
  });
  const meta = { total: answer?.total ?? 0, server_timestamp: now.toISOString(), ...(deletedIds && { deleted_ids: deletedIds }) };
  const details = answer
    ? `{"integrations":${answer.integrations},"external_identifiers":${answer.identifiers},"organization_relationships":${answer.relationships},"active_closures":${answer.closures},"incidents":${answer.incidents}}`
    : '{"integrations":[],"external_identifiers":[],"organization_relationships":[],"active_closures":[],"incidents":[]}';
  return `{"columns":${JSON.stringify(THING_SNAPSHOT_COLUMNS)},"flags":${JSON.stringify(THING_SNAPSHOT_FLAGS)},"rows":${answer?.rows ?? '[]'},"organizations":${JSON.stringify(organizationsOut)},"types":${answer?.types ?? '[]'},"subtypes":${answer?.subtypes ?? '[]'},"details":${details},"meta":${JSON.stringify(meta)}}`;
}
