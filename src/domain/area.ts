/**
 * Areas: stations, exclusions and points of interest (part 2 §2 Areas, §3 Area, Area type, §4 Areas).
 *
 * Wire shapes (decided here, as §3 names the fields but not their encoding):
 * - `point_geom` is `{ lat, lon }` both ways (the write payload's shape in §3);
 * - `area_geom` is a GeoJSON Polygon (closed ring, [lng, lat]) both ways.
 */
import { z } from 'zod';
import { addressWireShape, toAddressPayload, versionWireShape, type AddressPayload } from './address';
import { compareText } from './compare';
import { METRES_PER_MILE, STATION_RADIUS_DEFAULT_M } from './constants';
import {
  geoJsonPolygonSchema,
  latLonToLatLng,
  polygonFromGeoJson,
  polygonToGeoJson,
  truncateCoordinate,
  type GeoJsonPolygon,
  type LatLng,
  type LatLon,
} from './geometry';

// ── area types ───────────────────────────────────────────────────────────────

/** part 2 §3: "is_av_type is true for no_stop and no_enter". */
export const AV_AREA_TYPE_DB_NAMES = ['no_stop', 'no_enter'] as const;

export function isAvAreaType(dbName: string): boolean {
  return (AV_AREA_TYPE_DB_NAMES as readonly string[]).includes(dbName);
}

/** GET /ez_types (part 2 §7): one area type. */
export const areaTypeWireSchema = z.object({
  id: z.string(),
  db_name: z.string(),
  display_name: z.string(),
  is_station_view: z.boolean(),
  is_av_type: z.boolean().optional(),
});
export type AreaTypeWire = z.infer<typeof areaTypeWireSchema>;

export interface AreaType {
  id: string;
  dbName: string;
  displayName: string;
  isStationView: boolean;
  /** Automated-vehicle type: editing needs haas:manage (part 2 §6). */
  isAvType: boolean;
}

/** The rule of §3 decides `isAvType`; a server flag that disagrees is not believed. */
export function fromAreaTypeWire(wire: AreaTypeWire): AreaType {
  return {
    id: wire.id,
    dbName: wire.db_name,
    displayName: wire.display_name,
    isStationView: wire.is_station_view,
    isAvType: isAvAreaType(wire.db_name),
  };
}

/** The server's side: an area type on the wire, with `is_av_type` from the rule. */
export function toAreaTypeWire(type: Pick<AreaType, 'id' | 'dbName' | 'displayName' | 'isStationView'>): AreaTypeWire {
  return {
    id: type.id,
    db_name: type.dbName,
    display_name: type.displayName,
    is_station_view: type.isStationView,
    is_av_type: isAvAreaType(type.dbName),
  };
}

const OTHER_TYPE = 'other';

function isOtherType(type: Pick<AreaType, 'dbName' | 'displayName'>): boolean {
  return type.displayName.trim().toLowerCase() === OTHER_TYPE || type.dbName.trim().toLowerCase() === OTHER_TYPE;
}

/** part 2 §3: area types sorted alphabetically (by display name, ignoring case) with 'Other' last. */
export function sortAreaTypes<T extends Pick<AreaType, 'dbName' | 'displayName'>>(types: readonly T[]): T[] {
  return [...types].sort((a, b) => {
    const otherA = isOtherType(a);
    const otherB = isOtherType(b);
    if (otherA !== otherB) return otherA ? 1 : -1;
    return compareText(a.displayName, b.displayName);
  });
}

// ── areas ────────────────────────────────────────────────────────────────────

export const pointGeomSchema = z.object({ lat: z.number(), lon: z.number() });

/** part 2 §3 Area (server). */
export const areaWireSchema = z.object({
  id: z.string(),
  organization_id: z.string(),
  organization_name: z.string().nullish(),
  thing_id: z.string().nullish(),
  lat: z.number().nullish(),
  lng: z.number().nullish(),
  desc: z.string().nullish(),
  /** Miles (part 2 §3). */
  radius_dist: z.number().nullish(),
  is_active: z.boolean().nullish(),
  area_geom: geoJsonPolygonSchema.nullish(),
  point_geom: pointGeomSchema.nullish(),
  name: z.string(),
  ez_type: areaTypeWireSchema,
  ...addressWireShape,
  ...versionWireShape,
});
export type AreaWire = z.infer<typeof areaWireSchema>;

export interface AreaAddress {
  address1: string;
  address2: string;
  city: string;
  state: string;
  postalCode: string;
  countryCode: string;
}

/** part 2 §3 Area (client). */
export interface Area extends AreaAddress {
  id: string;
  displayName: string;
  description: string;
  ezTypeId: string;
  ezTypeName: string;
  /** The area type's db_name, for the AV-type permission rule (part 2 §6). */
  ezTypeDbName: string;
  isAvType: boolean;
  position: LatLng | null;
  lat: number | null;
  lng: number | null;
  /** A point of interest has a point but no shape (part 2 §2). */
  isPoi: boolean;
  isStationView: boolean;
  /** No point and no area geometry (part 2 §2). */
  isLegacy: boolean;
  /** The opposite of isPoi (part 2 §3). */
  isExclusion: boolean;
  /** Metres (radius_dist miles × 1609), null when the server gives none. */
  radius: number | null;
  /** The shape's ring, open (part 2 §3: "lineStringArray (lat, lon)"). */
  lineStringArray: LatLon[];
  orgId: string;
  orgName: string;
  thingId: string | null;
  isActive: boolean;
  /** The server's edit counter of the copy shown (null: a new area). */
  version: number | null;
}

export const AREA_KINDS = ['legacy', 'point_of_interest', 'exclusion'] as const;
export type AreaKind = (typeof AREA_KINDS)[number];

/** part 2 §2: "The default new area is an exclusion zone." */
export const DEFAULT_AREA_KIND: AreaKind = 'exclusion';

export function areaKind(area: Pick<Area, 'isLegacy' | 'isPoi'>): AreaKind {
  if (area.isLegacy) return 'legacy';
  if (area.isPoi) return 'point_of_interest';
  return 'exclusion';
}

export function milesToMetres(miles: number): number {
  return miles * METRES_PER_MILE;
}

export function fromAreaWire(wire: AreaWire): Area {
  const ring = wire.area_geom ? polygonFromGeoJson(wire.area_geom) : [];
  const hasShape = ring.length > 0;
  const hasPoint = wire.point_geom != null;
  let position: LatLng | null = null;
  if (wire.point_geom) position = latLonToLatLng(wire.point_geom);
  else if (wire.lat != null && wire.lng != null) position = { lat: wire.lat, lng: wire.lng };
  const isPoi = hasPoint && !hasShape;
  return {
    id: wire.id,
    displayName: wire.name,
    description: wire.desc ?? '',
    ezTypeId: wire.ez_type.id,
    ezTypeName: wire.ez_type.display_name,
    ezTypeDbName: wire.ez_type.db_name,
    isAvType: isAvAreaType(wire.ez_type.db_name),
    position,
    lat: position?.lat ?? null,
    lng: position?.lng ?? null,
    isPoi,
    isStationView: wire.ez_type.is_station_view,
    isLegacy: !hasPoint && !hasShape,
    isExclusion: !isPoi,
    radius: wire.radius_dist == null ? null : milesToMetres(wire.radius_dist),
    lineStringArray: ring.map((p) => ({ lat: p.lat, lon: p.lng })),
    address1: wire.address1 ?? '',
    address2: wire.address2 ?? '',
    city: wire.city ?? '',
    state: wire.state ?? '',
    postalCode: wire.postal_code ?? '',
    countryCode: wire.country_code ?? '',
    orgId: wire.organization_id,
    orgName: wire.organization_name ?? '',
    thingId: wire.thing_id ?? null,
    isActive: wire.is_active ?? true,
    version: wire.version ?? null,
  };
}

/** A new area: an exclusion with no position and no shape yet (part 2 §2). */
export function newArea(orgId: string, orgName = ''): Area {
  return {
    id: '',
    displayName: '',
    description: '',
    ezTypeId: '',
    ezTypeName: '',
    ezTypeDbName: '',
    isAvType: false,
    position: null,
    lat: null,
    lng: null,
    isPoi: false,
    isStationView: false,
    isLegacy: false,
    isExclusion: true,
    radius: null,
    lineStringArray: [],
    address1: '',
    address2: '',
    city: '',
    state: '',
    postalCode: '',
    countryCode: '',
    orgId,
    orgName,
    thingId: null,
    isActive: true,
    version: null,
  };
}

/** POST/PUT /organization/exclusion_zone body (part 2 §3 "Write payload"). */
export interface AreaPayload extends AddressPayload {
  id?: string;
  organization_id: string;
  name: string;
  desc: string;
  ez_type_id: string;
  area_geom: GeoJsonPolygon | null;
  point_geom: LatLon | null;
}

/**
 * The write payload. Coordinates are truncated to 7 decimals (part 2 §9). A point of interest
 * sends no shape; an exclusion sends its ring (closed) when it has one. A new area (empty id)
 * sends no id.
 */
export function toAreaPayload(area: Area): AreaPayload {
  const ring = area.isPoi ? [] : area.lineStringArray.map((p) => ({ lat: truncateCoordinate(p.lat), lng: truncateCoordinate(p.lon) }));
  const payload: AreaPayload = {
    organization_id: area.orgId,
    name: area.displayName.trim(),
    desc: area.description.trim(),
    ez_type_id: area.ezTypeId,
    area_geom: ring.length > 0 ? polygonToGeoJson(ring) : null,
    point_geom: area.position ? { lat: truncateCoordinate(area.position.lat), lon: truncateCoordinate(area.position.lng) } : null,
    ...toAddressPayload(area),
  };
  if (area.id) payload.id = area.id;
  return payload;
}

/** part 2 §4: "Areas are sorted by name, case-insensitively." Ties keep their order. */
export function sortAreas<T extends Pick<Area, 'displayName'>>(areas: readonly T[]): T[] {
  return [...areas].sort((a, b) => compareText(a.displayName, b.displayName));
}

/** A station for the worker's station check (part 1 §4). */
export interface Station {
  id: string;
  name: string;
  position: LatLng;
  /** Metres. */
  radius: number;
}

/**
 * Areas whose type is a station view and that have a position; a missing or non-positive radius
 * becomes STATION_RADIUS_DEFAULT_M (part 1 §9 "Station radius default 100 m").
 */
export function stationsFrom(areas: readonly Area[]): Station[] {
  const stations: Station[] = [];
  for (const area of areas) {
    if (!area.isStationView || !area.position) continue;
    const radius = area.radius != null && area.radius > 0 ? area.radius : STATION_RADIUS_DEFAULT_M;
    stations.push({ id: area.id, name: area.displayName, position: area.position, radius });
  }
  return stations;
}
