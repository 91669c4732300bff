import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { section } from '../../../src/domain/permissions';
import { sortRoles } from '../../../src/domain/role';
import type { ServerDeps } from '../../deps';
import { listRoles, roleWire } from './repository';
import { canAssignRole, roleAnswer } from './schema';

/** part 2 §7 GET /roles: the roles the caller may assign, by order. Needs an accounts permission (part 2 §6). */
export function roleRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const listSchema = { summary: 'The roles the caller may assign, by order', response: { 200: z.array(roleAnswer) } };
  api.get('/roles', { config: { access: section('accounts').anyOf }, schema: listSchema }, async (request) => {
    const { caller } = request;
    const rows = await listRoles(db);
    return sortRoles(rows.filter((role) => canAssignRole(caller.permissions, role.permissions))).map(roleWire);
  });
}
