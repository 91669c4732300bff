/**
 * Alerting zones (part 2 §2 Alerting zones, §3 Alerting zone, §4 Alerting zone status).
 */
import { z } from 'zod';
import { primaryDisplayName } from './asset';
import { fromGeoJsonFeature, geoJsonFeatureSchema, type Geometry } from './geometry';

// ── wire ─────────────────────────────────────────────────────────────────────

export const zoneThingWireSchema = z.object({
  id: z.string(),
  haas_id: z.string().nullish(),
  nickname: z.string().nullish(),
});
export type ZoneThingWire = z.infer<typeof zoneThingWireSchema>;

/** GET /organization/alerting_zones (part 2 §3, §7). Features are GeoJSON (see geometry.ts for circles). */
export const alertingZoneWireSchema = z.object({
  id: z.string(),
  external_id: z.string().nullish(),
  alerting_zone_type_name: z.string(),
  alert_message: z.string().nullish(),
  description: z.string().nullish(),
  features: z.array(geoJsonFeatureSchema).nullish(),
  is_active: z.boolean(),
  active_things: z.array(zoneThingWireSchema).nullish(),
  /** `default_expiry`: seconds an active location lasts by default. */
  active_locations: z.object({ default_expiry: z.number().nullish() }).nullish(),
});
export type AlertingZoneWire = z.infer<typeof alertingZoneWireSchema>;

// ── client ───────────────────────────────────────────────────────────────────

export const ZONE_STATUSES = ['active', 'standby'] as const;
export type ZoneStatus = (typeof ZONE_STATUSES)[number];

export interface ZoneThing {
  thingId: string;
  /** The asset's primary display name: nickname, otherwise the upper-cased name (part 1 §3). */
  thingName: string;
}

export interface AlertingZone {
  id: string;
  externalId: string | null;
  typeName: string;
  alertMessage: string;
  description: string;
  features: Geometry[];
  isActive: boolean;
  status: ZoneStatus;
  activeThings: ZoneThing[];
  activeLocationExpiry: number | null;
}

/** part 2 §3: "A zone as shown with its things". `typeId` is the zone type's name. */
export interface ZoneView {
  id: string;
  externalId: string | null;
  description: string;
  typeId: string;
  status: ZoneStatus;
  things: ZoneThing[];
}

/** part 2 §4: active when isActive, else standby. */
export function zoneStatus(zone: Pick<AlertingZone, 'isActive'>): ZoneStatus {
  return zone.isActive ? 'active' : 'standby';
}

function zoneThing(wire: ZoneThingWire): ZoneThing {
  return { thingId: wire.id, thingName: primaryDisplayName(wire.haas_id ?? '', wire.nickname?.trim()) };
}

export function fromAlertingZoneWire(wire: AlertingZoneWire): AlertingZone {
  return {
    id: wire.id,
    externalId: wire.external_id ?? null,
    typeName: wire.alerting_zone_type_name,
    alertMessage: wire.alert_message ?? '',
    description: wire.description ?? '',
    features: (wire.features ?? []).map(fromGeoJsonFeature),
    isActive: wire.is_active,
    status: zoneStatus({ isActive: wire.is_active }),
    activeThings: (wire.active_things ?? []).map(zoneThing),
    activeLocationExpiry: wire.active_locations?.default_expiry ?? null,
  };
}

export function toZoneView(zone: AlertingZone): ZoneView {
  return {
    id: zone.id,
    externalId: zone.externalId,
    description: zone.description,
    typeId: zone.typeName,
    status: zone.status,
    things: zone.activeThings,
  };
}

/** part 2 §4: "Zones are sorted by the active flag": active first; ties keep their order. */
export function sortZones<T extends { status: ZoneStatus }>(zones: readonly T[]): T[] {
  const rank = (z: T): number => (z.status === 'active' ? 0 : 1);
  return [...zones].sort((a, b) => rank(a) - rank(b));
}

// ── search and filter (part 2 §2) ────────────────────────────────────────────

function normalizeSearch(text: string): string {
  return text.trim().toLowerCase();
}

/**
 * part 2 §2: a case-insensitive substring match on the zone id (its id or external id),
 * description, or any of its assets' id and name. An empty search matches all.
 */
export function zoneMatchesSearch(zone: Pick<ZoneView, 'id' | 'externalId' | 'description' | 'things'>, text: string): boolean {
  const needle = normalizeSearch(text);
  if (!needle) return true;
  const fields = [zone.id, zone.externalId ?? '', zone.description];
  for (const thing of zone.things) fields.push(thing.thingId, thing.thingName);
  return fields.some((field) => field.toLowerCase().includes(needle));
}

export interface ZoneFilter {
  /** Zone types the user hid (by type name). */
  hiddenTypes: readonly string[];
  /** Statuses shown. */
  statuses: readonly ZoneStatus[];
  search: string;
}

export function defaultZoneFilter(): ZoneFilter {
  return { hiddenTypes: [], statuses: ['active', 'standby'], search: '' };
}

export function zoneMatchesFilter(zone: ZoneView, filter: ZoneFilter): boolean {
  return !filter.hiddenTypes.includes(zone.typeId) && filter.statuses.includes(zone.status) && zoneMatchesSearch(zone, filter.search);
}

/**
 * How a filter change relates to the old filter, as sets of zones admitted:
 * - 'same': admits exactly what it admitted;
 * - 'looser': admits everything the old one did, maybe more;
 * - 'tighter': admits nothing the old one did not, maybe less;
 * - 'mixed': neither (one part loosened while another tightened).
 *
 * Per part: fewer hidden types loosen, more tighten; more statuses loosen, fewer tighten; a
 * search whose normalized text (trimmed, lower case) is a substring of the old one loosens (every
 * field containing the old text contains the new), one that contains the old text tightens, and
 * an unrelated text is mixed. A part that changes both ways (e.g. one type unhidden, another
 * hidden) is mixed.
 */
export type FilterChange = 'same' | 'looser' | 'tighter' | 'mixed';

function setChange<T>(prevAdmitted: readonly T[], nextAdmitted: readonly T[]): FilterChange {
  const prev = new Set(prevAdmitted);
  const next = new Set(nextAdmitted);
  const gained = [...next].some((v) => !prev.has(v));
  const lost = [...prev].some((v) => !next.has(v));
  if (gained && lost) return 'mixed';
  if (gained) return 'looser';
  if (lost) return 'tighter';
  return 'same';
}

function invert(change: FilterChange): FilterChange {
  if (change === 'looser') return 'tighter';
  if (change === 'tighter') return 'looser';
  return change;
}

function searchChange(prevText: string, nextText: string): FilterChange {
  const prev = normalizeSearch(prevText);
  const next = normalizeSearch(nextText);
  if (prev === next) return 'same';
  if (prev.includes(next)) return 'looser';
  if (next.includes(prev)) return 'tighter';
  return 'mixed';
}

export function compareZoneFilters(prev: ZoneFilter, next: ZoneFilter): FilterChange {
  const parts: FilterChange[] = [
    // Hiding is the inverse of admitting.
    invert(setChange(prev.hiddenTypes, next.hiddenTypes)),
    setChange(prev.statuses, next.statuses),
    searchChange(prev.search, next.search),
  ];
  const looser = parts.includes('looser');
  const tighter = parts.includes('tighter');
  if (parts.includes('mixed') || (looser && tighter)) return 'mixed';
  if (looser) return 'looser';
  if (tighter) return 'tighter';
  return 'same';
}

/** "The filter loosens": it admits every zone the old one did (and the filter changed). */
export function zoneFilterLoosens(prev: ZoneFilter, next: ZoneFilter): boolean {
  return compareZoneFilters(prev, next) === 'looser';
}

/**
 * part 2 §2: "When a filter loosens, hidden zones are re-tested and may appear. Otherwise shown
 * zones are re-tested and may be hidden." `matches` tests a zone against `nextFilter`.
 *
 * - looser: only hidden zones are tested; matches move to `shown` (after the zones already shown);
 * - tighter or same: only shown zones are tested; misses move to `hidden`;
 * - mixed: both are tested. Read literally, "otherwise" would test only shown zones, and a
 *   zone that the loosened part now admits would wrongly stay hidden; a mixed change is both a
 *   loosening and a tightening, so both rules apply.
 * Order within each list is kept; callers sort with `sortZones`.
 */
export function refilterZones<T>(
  prevFilter: ZoneFilter,
  nextFilter: ZoneFilter,
  shown: readonly T[],
  hidden: readonly T[],
  matches: (zone: T) => boolean,
): { shown: T[]; hidden: T[] } {
  const change = compareZoneFilters(prevFilter, nextFilter);
  const retestShown = change !== 'looser';
  const retestHidden = change === 'looser' || change === 'mixed';
  const nextShown: T[] = [];
  const nextHidden: T[] = [];
  for (const zone of shown) {
    if (!retestShown || matches(zone)) nextShown.push(zone);
    else nextHidden.push(zone);
  }
  for (const zone of hidden) {
    if (retestHidden && matches(zone)) nextShown.push(zone);
    else nextHidden.push(zone);
  }
  return { shown: nextShown, hidden: nextHidden };
}
