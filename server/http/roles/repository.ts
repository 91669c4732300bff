import { asc, eq } from 'drizzle-orm';
import { roleLabel } from '../../../src/domain/role';
import type { Db } from '../../db/connection';
import { roles } from '../../db/schema';

export type RoleRow = typeof roles.$inferSelect;

export async function findRole(db: Db, id: number): Promise<RoleRow | null> {
  if (!Number.isSafeInteger(id)) return null;
  const [row] = await db.select().from(roles).where(eq(roles.id, id)).limit(1);
  return row ?? null;
}

/** Every role, by order (then id). */
export async function listRoles(db: Db): Promise<RoleRow[]> {
  const rows = await db.select().from(roles).orderBy(asc(roles.order), asc(roles.id));
  return rows;
}

/** The role wire of part 1 §3 / part 2 §3 (src/domain/role.ts), with its shown name. */
export function roleWire(role: RoleRow) {
  return { id: role.id, name: role.name, description: role.description, order: role.order, label: roleLabel(role.name) };
}
