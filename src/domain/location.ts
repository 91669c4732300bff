/**
 * Locations (events, incidents): wire schema, client model and mapper, the PUT /locations/{id}
 * payload, and the events panel's rules: sort, cap, display choice, search, counts and row height
 * (part 1 §2 "Events (incidents) panel", §3 Location, §4 "Sorting and filtering", §7, §9).
 *
 * Wire names: id, external_id, display_name, is_active, is_geo_marker, marker_position {lat, lng},
 * lat, lng, street, roadway_heading (degrees), start_time, end_time, alert_message, wzdx_id,
 * things_active / things_inactive [{id, start_time, end_time, runtime (seconds), external_id,
 * haas_id, nickname, vin_number, license_plate_number, registry_number}], features (GeoJSON
 * Features, circles as Points with properties.radius — see geometry.ts), organization_id, updated_at,
 * acknowledged_at, acknowledged_by {id, name}, notes_count (the notes themselves: ./location-notes.ts).
 */
import { EVENTS_TEXT, eventCountsText as countsText } from './labels';
import { startOfDay } from 'date-fns';
import { tz } from '@date-fns/tz';
import { z } from 'zod';
import { DAY_MS, EVENT_ROW_ACTIVE_EXTRA, EVENT_ROW_HEIGHT, EVENTS_KEPT } from './constants';
import { fromGeoJsonFeature, geoJsonFeatureSchema, type Geometry, type LatLng } from './geometry';
import { primaryDisplayName } from './asset';
import { canEditEvent, type PermissionList } from './permissions';
import { compareIds, compareNewest } from './compare';
import { isoDateTime, parseTime } from './time';
import { userRefSchema, type UserRef } from './location-notes';

export const locationThingWireSchema = z.object({
  id: z.string(),
  haas_id: z.string(),
  nickname: z.string().nullish(),
  external_id: z.string().nullish(),
  vin_number: z.string().nullish(),
  license_plate_number: z.string().nullish(),
  registry_number: z.string().nullish(),
  start_time: isoDateTime.nullish(),
  end_time: isoDateTime.nullish(),
  runtime: z.number().nullish(),
});
export type LocationThingWire = z.infer<typeof locationThingWireSchema>;

export const locationWireSchema = z.object({
  id: z.string(),
  external_id: z.string().nullish(),
  display_name: z.string().nullish(),
  is_active: z.boolean(),
  is_geo_marker: z.boolean().default(false),
  marker_position: z.object({ lat: z.number(), lng: z.number() }).nullish(),
  lat: z.number(),
  lng: z.number(),
  street: z.string().nullish(),
  roadway_heading: z.number().nullish(),
  start_time: isoDateTime.nullish(),
  end_time: isoDateTime.nullish(),
  alert_message: z.string().nullish(),
  wzdx_id: z.string().nullish(),
  things_active: z.array(locationThingWireSchema).default([]),
  things_inactive: z.array(locationThingWireSchema).default([]),
  features: z.array(geoJsonFeatureSchema).default([]),
  organization_id: z.string().nullish(),
  updated_at: isoDateTime.nullish(),
  /** The first acknowledgement (docs/decisions/spec.md "Incident notes and acknowledgement"); null: none yet. */
  acknowledged_at: isoDateTime.nullish(),
  acknowledged_by: userRefSchema.nullish(),
  notes_count: z.number().int().min(0).default(0),
});
export type LocationWire = z.infer<typeof locationWireSchema>;
export type LocationWireInput = z.input<typeof locationWireSchema>;

export interface LocationThing {
  id: string;
  /** The nickname, otherwise the upper-cased haas_id (as an asset's primaryDisplayName). */
  displayName: string;
  name: string;
  nickname: string | null;
  externalId: string | null;
  vinNumber: string | null;
  plateNumber: string | null;
  registryNumber: string | null;
  /** Arrival on scene, ms. */
  startTime: number | null;
  endTime: number | null;
  /** Seconds. */
  runtime: number | null;
}

export interface Location {
  id: string;
  externalId: string | null;
  displayName: string;
  isActive: boolean;
  isGeoMarker: boolean;
  markerPosition: LatLng | null;
  lat: number;
  lng: number;
  street: string | null;
  /** Degrees; null when the server has none (the heading dial shows only for a number). */
  roadwayHeading: number | null;
  startTime: number | null;
  endTime: number | null;
  alertMessage: string | null;
  wzdxId: string | null;
  thingsActive: LocationThing[];
  thingsInactive: LocationThing[];
  features: Geometry[];
  organizationId: string | null;
  updatedAt: number | null;
  /** ms; null until someone acknowledged the incident. */
  acknowledgedAt: number | null;
  acknowledgedBy: UserRef | null;
  notesCount: number;
}

export function fromLocationThingWire(wire: LocationThingWire): LocationThing {
  const nickname = wire.nickname || null;
  return {
    id: wire.id,
    displayName: primaryDisplayName(wire.haas_id, nickname),
    name: wire.haas_id,
    nickname,
    externalId: wire.external_id ?? null,
    vinNumber: wire.vin_number ?? null,
    plateNumber: wire.license_plate_number ?? null,
    registryNumber: wire.registry_number ?? null,
    startTime: parseTime(wire.start_time),
    endTime: parseTime(wire.end_time),
    runtime: wire.runtime ?? null,
  };
}

/** displayName falls back to the street, then to '' when the server sends no display name. */
export function fromLocationWire(wire: LocationWire): Location {
  return {
    id: wire.id,
    externalId: wire.external_id ?? null,
    displayName: wire.display_name || wire.street || '',
    isActive: wire.is_active,
    isGeoMarker: wire.is_geo_marker,
    markerPosition: wire.marker_position ? { lat: wire.marker_position.lat, lng: wire.marker_position.lng } : null,
    lat: wire.lat,
    lng: wire.lng,
    street: wire.street ?? null,
    roadwayHeading: wire.roadway_heading ?? null,
    startTime: parseTime(wire.start_time),
    endTime: parseTime(wire.end_time),
    alertMessage: wire.alert_message ?? null,
    wzdxId: wire.wzdx_id ?? null,
    thingsActive: wire.things_active.map(fromLocationThingWire),
    thingsInactive: wire.things_inactive.map(fromLocationThingWire),
    features: wire.features.map(fromGeoJsonFeature),
    organizationId: wire.organization_id ?? null,
    updatedAt: parseTime(wire.updated_at),
    acknowledgedAt: parseTime(wire.acknowledged_at),
    acknowledgedBy: wire.acknowledged_by ?? null,
    notesCount: wire.notes_count,
  };
}

/** The events list's mark (docs/decisions/spec.md "Incident notes and acknowledgement"): an active incident nobody acknowledged. */
export function isUnacknowledged(location: Pick<Location, 'isActive' | 'acknowledgedAt'>): boolean {
  return location.isActive && location.acknowledgedAt === null;
}

/** Time to scene of a vehicle (part 1 §2): its arrival minus the event's start, ms; null when unknown. */
export function timeToScene(location: Pick<Location, 'startTime'>, thing: Pick<LocationThing, 'startTime'>): number | null {
  if (location.startTime === null || thing.startTime === null) return null;
  return Math.max(0, thing.startTime - location.startTime);
}

// ── update payload (part 1 §7 PUT /locations/{id}) ───────────────────────────
export const locationPayloadSchema = z.object({
  lat: z.number(),
  lng: z.number(),
  roadway_heading: z.number(),
  organization_id: z.string(),
});
export type LocationPayload = z.infer<typeof locationPayloadSchema>;

/** The location edit form (part 1 §2: lat, lng and roadway heading). */
export interface LocationForm {
  lat: number;
  lng: number;
  roadwayHeading: number;
}

export function toLocationPayload(form: LocationForm, organizationId: string): LocationPayload {
  return { lat: form.lat, lng: form.lng, roadway_heading: form.roadwayHeading, organization_id: organizationId };
}

export function locationToForm(location: Pick<Location, 'lat' | 'lng' | 'roadwayHeading'>): LocationForm {
  return { lat: location.lat, lng: location.lng, roadwayHeading: location.roadwayHeading ?? 0 };
}

// ── sort and cap (part 1 §4) ─────────────────────────────────────────────────
export type SortableEvent = Pick<Location, 'id' | 'isActive' | 'startTime' | 'endTime'>;

/** Active first; active by newest start; inactive by newest end; ties by id (a total order). */
export function compareEvents(a: SortableEvent, b: SortableEvent): number {
  if (a.isActive !== b.isActive) return a.isActive ? -1 : 1;
  const byTime = a.isActive ? compareNewest(a.startTime, b.startTime) : compareNewest(a.endTime, b.endTime);
  if (byTime !== 0) return byTime;
  return compareIds(a.id, b.id);
}

/** A sorted copy. */
export function sortEvents<T extends SortableEvent>(events: readonly T[]): T[] {
  return [...events].sort(compareEvents);
}

/**
 * part 1 §4, §9: at most EVENTS_KEPT events, the oldest removed. "Oldest" follows the sort order:
 * inactive events with the oldest end go first; active events are dropped only when more than
 * EVENTS_KEPT are active (the oldest starts then). Returns the kept events sorted.
 */
export function capEvents<T extends SortableEvent>(events: readonly T[]): T[] {
  const sorted = sortEvents(events);
  return sorted.length > EVENTS_KEPT ? sorted.slice(0, EVENTS_KEPT) : sorted;
}

// ── display choice (part 1 §2) ───────────────────────────────────────────────
export const EVENT_DISPLAY_CHOICES = ['active', 'today', '24h', 'all'] as const;
export type EventDisplayChoice = (typeof EVENT_DISPLAY_CHOICES)[number];
export const EVENT_DISPLAY_LABELS: Readonly<Record<EventDisplayChoice, string>> = {
  active: 'Active Only',
  today: 'Today',
  '24h': '24 hrs',
  all: 'All Recent',
};
/** part 1 §2, §4: 24 hrs is the default. */
export const DEFAULT_EVENT_DISPLAY: EventDisplayChoice = '24h';
/** The '24 hrs' window. */
export const EVENTS_LAST_24H_MS = DAY_MS;

/** When an inactive event last mattered: its end, else its start. */
function lastSeen(event: Pick<Location, 'startTime' | 'endTime'>): number | null {
  return event.endTime ?? event.startTime;
}

/** Midnight starting the day of `now` in `timeZone` (IANA), or in the runtime's zone when none. */
export function startOfDayIn(now: number, timeZone?: string): number {
  return (timeZone ? startOfDay(now, { in: tz(timeZone) }) : startOfDay(now)).getTime();
}

/**
 * part 1 §2. Active events show under every choice. Inactive ones: 'active' none; 'today' those
 * that ended (or, with no end, started) since midnight in `timeZone`; '24h' those that ended within
 * the last 24 hours (an end exactly 24 h ago still shows); 'all' every kept (recent) event.
 * Keeps the input order.
 */
export function filterEventsByDisplay<T extends Pick<Location, 'isActive' | 'startTime' | 'endTime'>>(
  events: readonly T[],
  choice: EventDisplayChoice,
  now: number,
  timeZone?: string,
): T[] {
  if (choice === 'all') return [...events];
  if (choice === 'active') return events.filter((e) => e.isActive);
  const since = choice === 'today' ? startOfDayIn(now, timeZone) : now - EVENTS_LAST_24H_MS;
  return events.filter((e) => {
    if (e.isActive) return true;
    const at = lastSeen(e);
    return at !== null && at >= since;
  });
}

// ── search (part 1 §2 'Search Asset, Street, or System ID') ──────────────────
/** The words live in labels.ts; re-exported here beside the search they describe. */
export const EVENTS_SEARCH_PLACEHOLDER = EVENTS_TEXT.searchPlaceholder;

export type SearchableEvent = Pick<Location, 'street' | 'externalId' | 'displayName' | 'thingsActive' | 'thingsInactive'>;

function includesText(value: string | null, needle: string): boolean {
  return value !== null && value.toLowerCase().includes(needle);
}

function thingMatches(thing: LocationThing, needle: string): boolean {
  return (
    includesText(thing.displayName, needle) ||
    includesText(thing.name, needle) ||
    includesText(thing.nickname, needle) ||
    includesText(thing.externalId, needle) ||
    includesText(thing.vinNumber, needle) ||
    includesText(thing.plateNumber, needle) ||
    includesText(thing.registryNumber, needle)
  );
}

/**
 * Case-insensitive substring over the event's street, display name and system id (external id)
 * and, for every vehicle on it, its names and ids. Blank text matches all.
 */
export function matchesEventSearch(event: SearchableEvent, text: string): boolean {
  const needle = text.trim().toLowerCase();
  if (needle === '') return true;
  if (includesText(event.street, needle) || includesText(event.displayName, needle) || includesText(event.externalId, needle)) {
    return true;
  }
  return event.thingsActive.some((t) => thingMatches(t, needle)) || event.thingsInactive.some((t) => thingMatches(t, needle));
}

// ── counts and rows (part 1 §2, §9) ──────────────────────────────────────────
export interface EventCounts {
  active: number;
  recent: number;
}

/** Active = active events; recent = the others (inactive, kept). */
export function eventCounts(events: Iterable<Pick<Location, 'isActive'>>): EventCounts {
  let active = 0;
  let recent = 0;
  for (const e of events) {
    if (e.isActive) active += 1;
    else recent += 1;
  }
  return { active, recent };
}

/** 'Active Events n | Recent Events n' (part 1 §2). */
export function eventCountsText(counts: EventCounts): string {
  return countsText(counts.active, counts.recent);
}

/** part 1 §9: 80, +10 when active. */
export function eventRowHeight(event: Pick<Location, 'isActive'>): number {
  return EVENT_ROW_HEIGHT + (event.isActive ? EVENT_ROW_ACTIVE_EXTRA : 0);
}

// ── location edit (part 1 §2, §6) ────────────────────────────────────────────
/** part 1 §2: 'Edit Location' shows for an active event that is not a geo marker, to a user who may update incidents. */
export function showsEditLocation(event: Pick<Location, 'isActive' | 'isGeoMarker'>, permissions: PermissionList): boolean {
  return event.isActive && !event.isGeoMarker && canEditEvent(permissions);
}

/** What the events panel asks the live worker for (part 1 §2 display choice and search). */
export interface EventsQuery {
  display: EventDisplayChoice;
  search: string;
  /** IANA zone of the organization for 'Today' (the runtime's zone when absent). */
  timeZone?: string;
}

export interface EventsView {
  version: number;
  /** The kept events that the display choice and the search show, sorted. */
  events: Location[];
  /** part 1 §2 'Active Events n | Recent Events n' of the events shown. */
  counts: EventCounts;
}

// ── the name of an event the ingest opens (chosen; part 1 §2 lists events by name) ─────────────
/** What a responding unit's type says the event is (chosen words). */
const INCIDENT_KINDS: Readonly<Record<string, string>> = {
  police: 'Police',
  fire: 'Fire',
  ambulance: 'Medical',
  arrow_board: 'Traffic control',
  maintenance: 'Road work',
  tow: 'Tow',
  waste: 'Waste',
};

/**
 * An event opened when a unit lights up away from every open one: what kind (by the first unit's
 * type) and where ('Fire: Guadalupe St & W 24th St'), so two events on one long street differ.
 */
export function incidentName(assetType: string | null | undefined, place: string): string {
  const kind = (assetType && INCIDENT_KINDS[assetType]) || 'Incident';
  return `${kind}: ${place}`;
}
