import { z } from 'zod';
import { HAAS_MANAGE } from '../../../src/domain/permissions';
import { roleWireSchema } from '../../../src/domain/role';

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

/** A role as GET /roles answers it: the wire with its shown name (roleLabel). */
export const roleAnswer = roleWireSchema.extend({ label: z.string() });
