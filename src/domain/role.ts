/** Roles (part 1 §3 Role, part 2 §3 Role, §6 role names). */
import { z } from 'zod';

export const roleWireSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullish(),
  order: z.number().default(0),
});
export type RoleWire = z.infer<typeof roleWireSchema>;

export interface Role {
  id: number;
  name: string;
  description: string | null;
  order: number;
  /** The name as shown (see roleLabel). */
  label: string;
}

/**
 * Shown names by server name. Part 1 writes 'USER (Incidents / Events only)' and part 2
 * 'USER (Incidents/Events only)': spaces around the slash, repeated spaces and letter case are
 * ignored when matching, so both read as Media.
 */
const ROLE_LABELS: ReadonlyMap<string, string> = new Map([
  ['USER (INCIDENTS/EVENTS ONLY)', 'Media'],
  ['USER', 'User'],
  ['ADMIN', 'Admin'],
  ['MANUFACTURER ADMIN', 'Org Admin'],
]);

function roleKey(name: string): string {
  return name
    .trim()
    .replace(/\s*\/\s*/g, '/')
    .replace(/\s+/g, ' ')
    .toUpperCase();
}

/** The shown name of a role; an unknown role shows its own name. */
export function roleLabel(name: string): string {
  return ROLE_LABELS.get(roleKey(name)) ?? name;
}

export function fromRoleWire(wire: RoleWire): Role {
  return {
    id: wire.id,
    name: wire.name,
    description: wire.description ?? null,
    order: wire.order,
    label: roleLabel(wire.name),
  };
}

/** Assignable roles by order (part 1 §3), ties by id; a sorted copy. */
export function sortRoles<T extends Pick<Role, 'id' | 'order'>>(roles: readonly T[]): T[] {
  return [...roles].sort((a, b) => a.order - b.order || a.id - b.id);
}
