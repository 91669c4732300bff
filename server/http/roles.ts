import { asc, eq } from 'drizzle-orm';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HAAS_MANAGE, section } from '../../src/domain/permissions';
import { roleLabel, roleWireSchema, sortRoles } from '../../src/domain/role';
import type { Db } from '../db/connection';
import { roles } from '../db/schema';
import type { ServerDeps } from '../deps';

export type RoleRow = typeof roles.$inferSelect;

/**
 * No caller assigns a role with more permissions than their own. A role is assignable
 * when every permission it grants is one the caller holds; haas:manage assigns any role. The same
 * rule guards editing or deleting a user: a user whose role exceeds the caller's is out of reach
 * (otherwise changing their e-mail and asking for a reset link would take their account).
 */
export function canAssignRole(callerPermissions: ReadonlySet<string>, rolePermissions: readonly string[]): boolean {
  if (callerPermissions.has(HAAS_MANAGE)) return true;
  return rolePermissions.every((permission) => callerPermissions.has(permission));
}

export async function findRole(db: Db, id: number): Promise<RoleRow | null> {
  if (!Number.isSafeInteger(id)) return null;
  const [row] = await db.select().from(roles).where(eq(roles.id, id)).limit(1);
  return row ?? null;
}

/** The role wire of part 1 §3 / part 2 §3 (src/domain/role.ts), with its shown name. */
export function roleWire(role: RoleRow) {
  return { id: role.id, name: role.name, description: role.description, order: role.order, label: roleLabel(role.name) };
}

/** A role as GET /roles answers it: the wire with its shown name (roleLabel). */
const roleAnswer = roleWireSchema.extend({ label: z.string() });

/** part 2 §7 GET /roles: the roles the caller may assign, by order. Needs an accounts permission (part 2 §6). */
export function roleRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const listSchema = { summary: 'The roles the caller may assign, by order', response: { 200: z.array(roleAnswer) } };
  api.get('/roles', { config: { access: section('accounts').anyOf }, schema: listSchema }, async (request) => {
    const { caller } = request;
    const rows = await db.select().from(roles).orderBy(asc(roles.order), asc(roles.id));
    return sortRoles(rows.filter((role) => canAssignRole(caller.permissions, role.permissions))).map(roleWire);
  });
}
