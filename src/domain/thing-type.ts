/** Thing types and subtypes (part 1 §3, part 2 §3): wire schemas, models, option lists. */
import { z } from 'zod';

export const thingTypeWireSchema = z.object({
  id: z.string(),
  name: z.string(),
  display_name: z.string().nullish(),
  is_emergency: z.boolean().default(false),
});
export type ThingTypeWire = z.infer<typeof thingTypeWireSchema>;

export const thingSubtypeWireSchema = z.object({
  id: z.string(),
  name: z.string(),
  display_name: z.string().nullish(),
  thing_type_id: z.string(),
});
export type ThingSubtypeWire = z.infer<typeof thingSubtypeWireSchema>;

export interface ThingType {
  id: string;
  name: string;
  displayName: string;
  isEmergency: boolean;
}

export interface ThingSubtype {
  id: string;
  name: string;
  displayName: string;
  thingTypeId: string;
}

/** displayName falls back to name when the server sends none (or an empty one). */
export function fromThingTypeWire(wire: ThingTypeWire): ThingType {
  return { id: wire.id, name: wire.name, displayName: wire.display_name || wire.name, isEmergency: wire.is_emergency };
}

export function fromThingSubtypeWire(wire: ThingSubtypeWire): ThingSubtype {
  return {
    id: wire.id,
    name: wire.name,
    displayName: wire.display_name || wire.name,
    thingTypeId: wire.thing_type_id,
  };
}

/** part 1 §5: subtype options depend on the chosen type. */
export function subtypesForType(subtypes: readonly ThingSubtype[], typeId: string | null | undefined): ThingSubtype[] {
  if (!typeId) return [];
  return subtypes.filter((s) => s.thingTypeId === typeId);
}

/** What `typeOptionsFor` reads of an asset; the client `Asset` model satisfies it. */
export interface TypedAsset {
  readonly thingTypeId: string | null;
  readonly thingType: string | null;
  readonly isResponderType: boolean;
}

/**
 * part 1 §5: "type options limited to the emergency or non-emergency kind matching the asset".
 * The asset's kind is its current type's isEmergency (found by id, else by name); an asset whose
 * type is not in the list falls back to its responder flag.
 */
export function typeOptionsFor(asset: TypedAsset, types: readonly ThingType[]): ThingType[] {
  const current =
    types.find((t) => asset.thingTypeId !== null && t.id === asset.thingTypeId) ??
    types.find((t) => asset.thingType !== null && t.name === asset.thingType);
  const emergency = current ? current.isEmergency : asset.isResponderType;
  return types.filter((t) => t.isEmergency === emergency);
}

/**
 * A code as words for a screen that has no display name for it: 'patrol_car' → 'Patrol car',
 * 'all-lanes-open' → 'All lanes open' (chosen: users read labels, not codes).
 */
export function codeWords(code: string): string {
  const words = code.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A type's label: its display name from GET /thing_types, else its code as words. */
export function thingTypeLabel(name: string, types: readonly Pick<ThingType, 'name' | 'displayName'>[]): string {
  return types.find((type) => type.name === name)?.displayName ?? codeWords(name);
}

/** A subtype's label: its display name from GET /thing_subtypes (by id, else by name), else its code as words. */
export function thingSubtypeLabel(
  subtype: { readonly id: string | null; readonly name: string },
  subtypes: readonly Pick<ThingSubtype, 'id' | 'name' | 'displayName'>[],
): string {
  const known = subtypes.find((entry) => (subtype.id !== null && entry.id === subtype.id) || entry.name === subtype.name);
  return known?.displayName ?? codeWords(subtype.name);
}
