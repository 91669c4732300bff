/**
 * Asset (thing): the wire schema, the client model and its mapper, the edit form model and the
 * PUT /things/{id} and /things/{id}/associations payloads (part 1 §3, §5, §7).
 *
 * Wire names (snake_case, as the server sends a thing):
 *   id, haas_id, nickname, heartbeat_datetime, updated_at,
 *   thing_type (type name), thing_type_id, thing_subtype (subtype name), thing_subtype_id,
 *   in_service, is_publicly_alerting, enroute, status,
 *   lat, lng, accuracy, course, speed, street, station_id,
 *   location_id, incident_start_time, incident_end_time,
 *   run_id, run_start_time, run_points_count, runtime (seconds),
 *   is_r2r_enabled, is_test_mode_on, is_allowed_for_test_mode, is_allowed_for_closures,
 *   is_responder (default true), is_integration_org, device_type,
 *   feed_subscriptions (WZDx feed ids), integrations [{name, id}],
 *   external_identifiers [{identifier_id, system_name}], active_closures [{id, wzdx_id}],
 *   organization {id, name, organization_type}, organization_relationships
 *   [{organization_uuid, organization_name, relationship_type: manager|accessor}],
 *   vin_number, license_plate_number, registry_number, external_id.
 * Times are ISO 8601 strings on the wire and ms since epoch in the model.
 */
import { z } from 'zod';
import { versionWireShape } from './address';
import { MAX_INTEGRATIONS, type CompassPoint } from './constants';
import { applyStationCheck, computeAssetStatus, isStale, serverStatusSchema, type AssetStatus } from './asset-status';
import type { LatLng } from './geometry';
import { courseToCompass } from './heading';
import { fromOrganizationTypeWire, organizationTypeWireSchema, type OrganizationType } from './organization';
import { isoDateTime, parseTime } from './time';

export const RELATIONSHIP_TYPES = ['manager', 'accessor'] as const;
export type RelationshipType = (typeof RELATIONSHIP_TYPES)[number];

export const organizationRelationshipWireSchema = z.object({
  organization_uuid: z.string(),
  organization_name: z.string(),
  relationship_type: z.enum(RELATIONSHIP_TYPES),
});
export type OrganizationRelationshipWire = z.infer<typeof organizationRelationshipWireSchema>;

export const externalIdentifierWireSchema = z.object({
  identifier_id: z.string(),
  system_name: z.string(),
});
export type ExternalIdentifierWire = z.infer<typeof externalIdentifierWireSchema>;

/** One of an organization's integrations on a thing wire. */
export const integrationWireSchema = z.object({ name: z.string(), id: z.string() });

export const thingOrganizationWireSchema = z.object({
  id: z.string(),
  name: z.string(),
  organization_type: organizationTypeWireSchema.nullish(),
});

export const thingWireSchema = z.object({
  id: z.string(),
  haas_id: z.string(),
  nickname: z.string().nullish(),
  heartbeat_datetime: isoDateTime.nullish(),
  updated_at: isoDateTime.nullish(),
  ...versionWireShape,
  thing_type: z.string().nullish(),
  thing_type_id: z.string().nullish(),
  thing_subtype: z.string().nullish(),
  thing_subtype_id: z.string().nullish(),
  in_service: z.boolean().default(true),
  is_publicly_alerting: z.boolean().default(true),
  enroute: z.boolean().default(false),
  /** What the server computed at send time; the client recomputes (docs/decisions/spec.md "kept or recomputed"). */
  status: serverStatusSchema.nullish(),
  lat: z.number().nullish(),
  lng: z.number().nullish(),
  accuracy: z.number().nullish(),
  course: z.number().nullish(),
  speed: z.number().nullish(),
  street: z.string().nullish(),
  station_id: z.string().nullish(),
  location_id: z.string().nullish(),
  incident_start_time: isoDateTime.nullish(),
  incident_end_time: isoDateTime.nullish(),
  run_id: z.string().nullish(),
  run_start_time: isoDateTime.nullish(),
  run_points_count: z.number().int().nullish(),
  runtime: z.number().nullish(),
  is_r2r_enabled: z.boolean().default(false),
  is_test_mode_on: z.boolean().default(false),
  is_allowed_for_test_mode: z.boolean().default(false),
  is_allowed_for_closures: z.boolean().default(false),
  is_responder: z.boolean().default(true),
  is_integration_org: z.boolean().default(false),
  device_type: z.string().nullish(),
  feed_subscriptions: z.array(z.string()).default([]),
  integrations: z.array(integrationWireSchema).default([]),
  external_identifiers: z.array(externalIdentifierWireSchema).default([]),
  active_closures: z.array(z.object({ id: z.string(), wzdx_id: z.string().nullish() })).default([]),
  organization: thingOrganizationWireSchema.nullish(),
  organization_relationships: z.array(organizationRelationshipWireSchema).default([]),
  vin_number: z.string().nullish(),
  license_plate_number: z.string().nullish(),
  registry_number: z.string().nullish(),
  external_id: z.string().nullish(),
});
export type ThingWire = z.infer<typeof thingWireSchema>;
/** The shape a server writes (defaults may be left out). */
export type ThingWireInput = z.input<typeof thingWireSchema>;

// ── client model (part 1 §3) ─────────────────────────────────────────────────
export interface OrganizationRelationship {
  organizationUuid: string;
  organizationName: string;
  relationshipType: RelationshipType;
}

export interface ExternalIdentifier {
  identifierId: string;
  systemName: string;
}

export interface Asset {
  id: string;
  /** The nickname, otherwise the upper-cased name. */
  primaryDisplayName: string;
  /** The name when a nickname exists. */
  secondaryDisplayName: string | null;
  nickname: string | null;
  /** The server's haas_id. */
  name: string;
  /** The external id, only when deviceType is 'api'. */
  systemId: string | null;
  externalId: string | null;
  vinNumber: string | null;
  plateNumber: string | null;
  registryNumber: string | null;
  /** The type's name (e.g. 'police'). */
  thingType: string | null;
  /** The type's id (not in part 1 §3's list; the edit form and its payload need it). */
  thingTypeId: string | null;
  /** The subtype's name. */
  thingSubtype: string | null;
  thingSubtypeUUID: string | null;
  inService: boolean;
  /** Alerting (is_publicly_alerting). */
  isPubliclyReporting: boolean;
  enroute: boolean;
  status: AssetStatus;
  heartbeatTime: number | null;
  isStale: boolean;
  position: LatLng;
  accuracy: number | null;
  course: number | null;
  courseDirection: CompassPoint | null;
  speed: number;
  street: string | null;
  stationId: string | null;
  checkStation: boolean;
  isOnIncident: boolean;
  locationId: string | null;
  incidentStartTime: number | null;
  incidentEndTime: number | null;
  runId: string | null;
  runStartTime: number | null;
  runPointsCount: number | null;
  /** Seconds. */
  runtime: number | null;
  isR2REnabled: boolean;
  isTestModeOn: boolean;
  isAllowedForTestMode: boolean;
  isAllowedForClosures: boolean;
  isResponderType: boolean;
  isIntegrationOrg: boolean;
  deviceType: string | null;
  feedSubscriptions: string[];
  integrations: { name: string; id: string }[];
  externalIdentifiers: ExternalIdentifier[];
  activeClosures: { id: string; wzdxId: string | null }[];
  organization: { id: string; name: string; organizationType: OrganizationType | null } | null;
  organizationRelationships: OrganizationRelationship[];
  updatedAt: number | null;
  /**
   * The server's edit counter of the asset's profile (the Profile form's If-Match); absent where
   * the asset came from the fleet snapshot or a live message only.
   */
  version?: number | null;
  /**
   * True while the asset holds only the fields of a fleet snapshot without its details (an older
   * server; docs/decisions/spec.md): its integrations, external identifiers, active closures,
   * organization relationships, incident times and runtime come with its page. Absent once its
   * full wire arrived.
   */
  detailsPending?: true;
  /**
   * Lower-cased names and ids joined by '\n', built once here so the filter can match 50,000
   * assets per keystroke without allocating (see `assetSearchText`).
   */
  searchText: string;
}

/** part 1 §3: the nickname, otherwise the upper-cased name. */
export function primaryDisplayName(name: string, nickname: string | null | undefined): string {
  return nickname ? nickname : name.toUpperCase();
}

/** The text the asset search matches: display names, name, nickname, ids, plate, VIN, registry. */
export function assetSearchText(
  a: Pick<
    Asset,
    'id' | 'primaryDisplayName' | 'name' | 'nickname' | 'systemId' | 'externalId' | 'plateNumber' | 'vinNumber' | 'registryNumber'
  >,
): string {
  return [a.primaryDisplayName, a.name, a.nickname, a.id, a.systemId, a.externalId, a.plateNumber, a.vinNumber, a.registryNumber]
    .filter((s): s is string => !!s)
    .join('\n')
    .toLowerCase();
}

/**
 * part 1 §3: only assets with both lat and lng are kept (null otherwise). The status is computed
 * at `now` (docs/decisions/spec.md: recomputed, never taken from the wire), then the station-check rule applies.
 */
export function fromThingWire(wire: ThingWire, now: number): Asset | null {
  if (wire.lat === null || wire.lat === undefined || wire.lng === null || wire.lng === undefined) return null;
  const nickname = wire.nickname || null;
  const deviceType = wire.device_type ?? null;
  const externalId = wire.external_id ?? null;
  const heartbeatTime = parseTime(wire.heartbeat_datetime);
  const locationId = wire.location_id ?? null;
  const activeClosures = wire.active_closures.map((c) => ({ id: c.id, wzdxId: c.wzdx_id ?? null }));
  const street = wire.street || null;
  const enroute = wire.enroute;
  const isOnIncident = locationId !== null;
  const status = computeAssetStatus({ heartbeatTime, enroute, street, isOnIncident, activeClosures }, now);
  const station = applyStationCheck(status, { checkStation: false, stationId: wire.station_id ?? null }, wire.station_id);
  const primary = primaryDisplayName(wire.haas_id, nickname);
  const systemId = deviceType === 'api' ? externalId : null;
  const asset: Asset = {
    id: wire.id,
    primaryDisplayName: primary,
    secondaryDisplayName: nickname ? wire.haas_id : null,
    nickname,
    name: wire.haas_id,
    systemId,
    externalId,
    vinNumber: wire.vin_number ?? null,
    plateNumber: wire.license_plate_number ?? null,
    registryNumber: wire.registry_number ?? null,
    thingType: wire.thing_type ?? null,
    thingTypeId: wire.thing_type_id ?? null,
    thingSubtype: wire.thing_subtype ?? null,
    thingSubtypeUUID: wire.thing_subtype_id ?? null,
    inService: wire.in_service,
    isPubliclyReporting: wire.is_publicly_alerting,
    enroute,
    status,
    heartbeatTime,
    isStale: isStale(heartbeatTime, now),
    position: { lat: wire.lat, lng: wire.lng },
    accuracy: wire.accuracy ?? null,
    course: wire.course ?? null,
    courseDirection: courseToCompass(wire.course),
    speed: wire.speed ?? 0,
    street,
    stationId: station.stationId,
    checkStation: station.checkStation,
    isOnIncident,
    locationId,
    incidentStartTime: parseTime(wire.incident_start_time),
    incidentEndTime: parseTime(wire.incident_end_time),
    runId: wire.run_id ?? null,
    runStartTime: parseTime(wire.run_start_time),
    runPointsCount: wire.run_points_count ?? null,
    runtime: wire.runtime ?? null,
    isR2REnabled: wire.is_r2r_enabled,
    isTestModeOn: wire.is_test_mode_on,
    isAllowedForTestMode: wire.is_allowed_for_test_mode,
    isAllowedForClosures: wire.is_allowed_for_closures,
    isResponderType: wire.is_responder,
    isIntegrationOrg: wire.is_integration_org,
    deviceType,
    feedSubscriptions: [...wire.feed_subscriptions],
    integrations: wire.integrations.map(({ name, id }) => ({ name, id })),
    externalIdentifiers: wire.external_identifiers.map((e) => ({ identifierId: e.identifier_id, systemName: e.system_name })),
    activeClosures,
    organization: wire.organization
      ? {
          id: wire.organization.id,
          name: wire.organization.name,
          organizationType: wire.organization.organization_type ? fromOrganizationTypeWire(wire.organization.organization_type) : null,
        }
      : null,
    organizationRelationships: wire.organization_relationships.map((r) => ({
      organizationUuid: r.organization_uuid,
      organizationName: r.organization_name,
      relationshipType: r.relationship_type,
    })),
    updatedAt: parseTime(wire.updated_at),
    version: wire.version ?? null,
    searchText: '',
  };
  asset.searchText = assetSearchText(asset);
  return asset;
}

/** Maps a list, keeping only positioned assets (part 1 §3). */
export function fromThingsWire(list: readonly ThingWire[], now: number): Asset[] {
  const out: Asset[] = [];
  for (const wire of list) {
    const asset = fromThingWire(wire, now);
    if (asset) out.push(asset);
  }
  return out;
}

// ── edit form (part 1 §3 "Thing form", §5) ───────────────────────────────────
export interface AssetIntegration {
  /** The provider's name (an external identifier's system_name). */
  provider: string;
  /** The asset's id in that provider (identifier_id). */
  id: string;
}

export interface AssetForm {
  id: string;
  inService: boolean;
  isPubliclyReporting: boolean;
  nickname: string;
  /** The chosen type's id ('' when none). */
  thingType: string;
  /** The chosen subtype's id ('' when none). */
  thingSubtype: string;
  vinNumber: string;
  plateNumber: string;
  registryNumber: string;
  /** At most MAX_INTEGRATIONS. */
  integrations: AssetIntegration[];
}

/** The form's starting values; missing strings become ''. */
export function assetToForm(asset: Asset): AssetForm {
  return {
    id: asset.id,
    inService: asset.inService,
    isPubliclyReporting: asset.isPubliclyReporting,
    nickname: asset.nickname ?? '',
    thingType: asset.thingTypeId ?? '',
    thingSubtype: asset.thingSubtypeUUID ?? '',
    vinNumber: asset.vinNumber ?? '',
    plateNumber: asset.plateNumber ?? '',
    registryNumber: asset.registryNumber ?? '',
    integrations: asset.externalIdentifiers.slice(0, MAX_INTEGRATIONS).map((e) => ({ provider: e.systemName, id: e.identifierId })),
  };
}

export const externalIdentifierPayloadSchema = externalIdentifierWireSchema.extend({
  is_deleted: z.boolean().default(false),
});

/** PUT /things/{id} (part 1 §7). */
export const thingPayloadSchema = z.object({
  id: z.string(),
  in_service: z.boolean(),
  is_publicly_alerting: z.boolean(),
  nickname: z.string().optional(),
  thing_type_id: z.string().optional(),
  /** null clears the subtype (it resets when the type changes, part 1 §5). */
  thing_subtype_id: z.string().nullable().optional(),
  /** null clears the value. */
  vin_number: z.string().nullable().optional(),
  license_plate_number: z.string().nullable().optional(),
  registry_number: z.string().nullable().optional(),
  external_identifiers: z.array(externalIdentifierPayloadSchema).default([]),
});
export type ThingPayload = z.infer<typeof thingPayloadSchema>;

function blankToNull(value: string): string | null {
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/**
 * The PUT /things/{id} body. Strings are trimmed; a blank nickname or type is left out, a blank
 * subtype, VIN, plate or registry number is sent as null (cleared). Every integration of the form
 * goes as an external identifier with is_deleted false; with `initial` (the form's starting
 * values), a provider present there but gone from the form is sent with is_deleted true.
 */
export function toThingPayload(form: AssetForm, initial?: AssetForm): ThingPayload {
  const payload: ThingPayload = {
    id: form.id,
    in_service: form.inService,
    is_publicly_alerting: form.isPubliclyReporting,
    thing_subtype_id: blankToNull(form.thingSubtype),
    vin_number: blankToNull(form.vinNumber),
    license_plate_number: blankToNull(form.plateNumber),
    registry_number: blankToNull(form.registryNumber),
    external_identifiers: [],
  };
  const nickname = form.nickname.trim();
  if (nickname) payload.nickname = nickname;
  const typeId = form.thingType.trim();
  if (typeId) payload.thing_type_id = typeId;
  const kept = new Set<string>();
  for (const integration of form.integrations) {
    const provider = integration.provider.trim();
    const id = integration.id.trim();
    if (!provider || !id) continue;
    kept.add(provider);
    payload.external_identifiers.push({ identifier_id: id, system_name: provider, is_deleted: false });
  }
  for (const integration of initial?.integrations ?? []) {
    if (!integration.provider || kept.has(integration.provider)) continue;
    payload.external_identifiers.push({
      identifier_id: integration.id,
      system_name: integration.provider,
      is_deleted: true,
    });
  }
  return payload;
}

// ── organization access (part 1 §5, §7) ──────────────────────────────────────
export const associationsPayloadSchema = z.object({
  organization_relationships: z.array(organizationRelationshipWireSchema),
});
export type AssociationsPayload = z.infer<typeof associationsPayloadSchema>;

/** One row of the organization access edit: manager, accessor or delete (part 1 §5). */
export interface OrganizationRelationshipEdit {
  organizationUuid: string;
  organizationName: string;
  relationshipType: RelationshipType | 'delete';
}

/** PUT /things/{thingId}/associations: the full list to keep; rows marked delete are left out. */
export function toAssociationsPayload(rows: readonly OrganizationRelationshipEdit[]): AssociationsPayload {
  const organization_relationships: OrganizationRelationshipWire[] = [];
  for (const row of rows) {
    if (row.relationshipType === 'delete') continue;
    organization_relationships.push({
      organization_uuid: row.organizationUuid,
      organization_name: row.organizationName,
      relationship_type: row.relationshipType,
    });
  }
  return { organization_relationships };
}
