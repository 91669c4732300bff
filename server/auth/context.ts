import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { HAAS_MANAGE, hasAny, type Permission } from '../../src/domain/permissions';
import type { Db } from '../db/connection';
import { roles, tokens, users } from '../db/schema';
import { forbidden, unauthorized } from '../core/errors';
import { hashToken } from './secrets';
import { loadOrgScope, type OrgScope } from './scope';

/** The caller of an authenticated request. */
export interface Caller {
  readonly userId: string;
  readonly email: string;
  readonly tokenId: string;
  readonly roleId: number;
  readonly permissions: ReadonlySet<string>;
  readonly scope: OrgScope;
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The caller: set by the access hook (server/http/route-access.ts) on every route that declares
     * `config.access`, before its handler runs; read it only there (elsewhere it is undefined).
     */
    caller: Caller;
  }
  interface FastifyInstance {
    /** The server's clock (ServerDeps.now): tests move it; token expiry is read from it. */
    lightbarNow?: () => Date;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/** Resolves an access token to its caller, or null when it is unknown, expired, revoked or its user is gone. */
export async function callerForToken(db: Db, accessToken: string, now: Date): Promise<Caller | null> {
  const [row] = await db
    .select({
      tokenId: tokens.id,
      userId: users.id,
      email: users.email,
      organizationId: tokens.organizationId,
      roleId: users.roleId,
      suspended: users.suspended,
      permissions: roles.permissions,
    })
    .from(tokens)
    .innerJoin(users, eq(users.id, tokens.userId))
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(
      and(
        eq(tokens.accessHash, hashToken(accessToken)),
        isNull(tokens.revokedAt),
        gt(tokens.accessExpiresAt, now),
        isNull(users.deletedAt),
      ),
    )
    .limit(1);
  if (!row || row.suspended) return null;
  const permissions = new Set(row.permissions);
  const scope = await loadOrgScope(db, row.organizationId, permissions.has(HAAS_MANAGE));
  return { userId: row.userId, email: row.email, tokenId: row.tokenId, roleId: row.roleId, permissions, scope };
}

/** The caller, or a 401 (which signs the dashboard out, part 1 §4). */
export async function requireCaller(db: Db, request: FastifyRequest): Promise<Caller> {
  if (request.caller) return request.caller;
  const token = bearerToken(request);
  if (!token) throw unauthorized();
  const caller = await callerForToken(db, token, request.server.lightbarNow?.() ?? new Date());
  if (!caller) throw unauthorized();
  request.caller = caller;
  return caller;
}

/** A 403 unless the caller holds any one of `required` (part 1 §6, part 2 §6). */
export function requireAny(caller: Caller, required: readonly Permission[]): void {
  if (!hasAny(caller.permissions, required)) throw forbidden();
}
