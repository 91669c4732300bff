import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasAny, type Permission } from '../../src/domain/permissions';
import { requireCaller, type Caller } from '../auth/context';
import type { Db } from '../db/connection';
import { forbidden } from '../core/errors';

/**
 * Who may call a route (part 1 §6, part 2 §6), declared on the route as `config: { access }`:
 * - `'signed-in'`: any valid access token;
 * - a list of permissions: the caller needs any one of them;
 * - a function of the caller (and the request, for the rules that read a header): true lets it in.
 * A route without `access` is public (sign-in, the WZDx feed, signed downloads, /version).
 */
export type RouteAccess = 'signed-in' | readonly Permission[] | ((caller: Caller, request: FastifyRequest) => boolean);

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}

/**
 * The hook that enforces `config.access`: 401 without a valid token (which signs the dashboard
 * out, part 1 §4), 403 without the permission; then `request.caller` is the caller. It runs at
 * preValidation, after the body is read (a malformed body is Fastify's 400 for anyone, as before)
 * and before the route's schemas are checked, so a stranger learns nothing from a 422: the order
 * stays 400 → 401 → 403 → 422 → the handler's own 404/403/422.
 */
export function installRouteAccess(app: FastifyInstance, db: Db): void {
  app.addHook('preValidation', async (request) => {
    const access = request.routeOptions.config.access;
    if (access === undefined) return;
    const caller = await requireCaller(db, request);
    if (access === 'signed-in') return;
    const allowed = typeof access === 'function' ? access(caller, request) : hasAny(caller.permissions, access);
    if (!allowed) throw forbidden();
  });
}
