/**
 * The dashboard map's layers control (docs/map.md "Layers"): which overlays the map draws, beside
 * the part 1 §2 layer panel's 'Display Assets' and 'Display Incidents' / 'Display Events' — the
 * areas (part 1 §2 "Areas on the map"), the closures in effect and those scheduled (part 2 §2
 * Closures, §4 Closure status), the alerting zones (part 2 §2 Alerting zones, active or standby)
 * and the recent hazards (part 2 §2 Hazards, by severity). Each is offered only to a user who may
 * open its section (`canSeeSection`), and the choice is remembered per user in this browser.
 */
import { z } from 'zod';
import type { Closure } from './closure';
import { HAZARD_RANGE_MAX_MS } from './constants';
import { canSeeSection, type PermissionList, type SectionKey } from './permissions';

export interface MapLayers {
  /** part 1 §2 'Display Assets'. */
  assets: boolean;
  /** part 1 §2 'Display Incidents' / 'Display Events'. */
  events: boolean;
  areas: boolean;
  /** Closures in effect (status active). */
  closuresActive: boolean;
  /** Closures not in effect yet whose scheduled start is still ahead. */
  closuresScheduled: boolean;
  zones: boolean;
  hazards: boolean;
}

export type MapLayerKey = keyof MapLayers;

/** The layers that need a section's permission, with that section (nothing is offered or fetched without it). */
export const MAP_LAYER_SECTIONS: Readonly<Partial<Record<MapLayerKey, SectionKey>>> = {
  /** part 2 §7: the areas are asked "only when the areas section is allowed" (src/app/map/use-areas.ts). */
  areas: 'areas',
  closuresActive: 'closures',
  closuresScheduled: 'closures',
  zones: 'zones',
  hazards: 'hazards',
};

/**
 * chosen: the part 1 map as it was (assets, incidents, areas on); the other sections' overlays
 * off until the user turns them on (docs/map.md "Layers").
 */
export const DEFAULT_MAP_LAYERS: Readonly<MapLayers> = {
  assets: true,
  events: true,
  areas: true,
  closuresActive: false,
  closuresScheduled: false,
  zones: false,
  hazards: false,
};

/** chosen: the hazards the map shows are those reported in the last 24 hours (part 2 §9's longest hazard range). */
export const MAP_HAZARDS_RANGE_MS = HAZARD_RANGE_MAX_MS;

const mapLayersSchema = z
  .object({
    assets: z.boolean(),
    events: z.boolean(),
    areas: z.boolean(),
    closuresActive: z.boolean(),
    closuresScheduled: z.boolean(),
    zones: z.boolean(),
    hazards: z.boolean(),
  })
  .partial();

/** The stored choice (JSON) over the defaults; anything unreadable is ignored. */
export function readMapLayers(text: string | null | undefined): MapLayers {
  try {
    const parsed = text ? mapLayersSchema.safeParse(JSON.parse(text)) : null;
    return { ...DEFAULT_MAP_LAYERS, ...(parsed?.success ? parsed.data : {}) };
  } catch {
    return { ...DEFAULT_MAP_LAYERS };
  }
}

/** Whether the user may have a layer: the assets and incidents always (part 1 §2's panel); the others by their section's permission. */
export function mayShowMapLayer(permissions: PermissionList | null, key: MapLayerKey): boolean {
  const sectionKey = MAP_LAYER_SECTIONS[key];
  if (!sectionKey) return true;
  return permissions !== null && canSeeSection(permissions, sectionKey);
}

/** The choice as drawn: a layer the user may not have is off whatever was stored. */
export function allowedMapLayers(choice: MapLayers, permissions: PermissionList | null): MapLayers {
  const allowed = { ...choice };
  for (const key of Object.keys(allowed) as MapLayerKey[]) allowed[key] = allowed[key] && mayShowMapLayer(permissions, key);
  return allowed;
}

/**
 * Where a closure belongs on the map: 'active' in effect (part 2 §4 status active), 'scheduled'
 * when it is not and its scheduled start is still ahead (and it has not ended: the WZDx feed's
 * "planned", src/domain/wzdx.ts), else null (not drawn by the layers control).
 */
export function closureMapGroup(closure: Pick<Closure, 'status' | 'startTime' | 'endTime'>, now: number): 'active' | 'scheduled' | null {
  if (closure.status === 'active') return 'active';
  if (closure.startTime !== null && closure.startTime > now && (closure.endTime === null || closure.endTime > now)) return 'scheduled';
  return null;
}
