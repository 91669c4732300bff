/**
 * Users of account administration (part 2 §2, §3 User, §6 accounts row, §7 user calls and the
 * legacy POST /users/ and PUT /users/{id}; §8 rows 'User calls', 'Add user', 'Update user').
 */
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { canAdministerUsers, section, type AccountsUserAction } from '../../src/domain/permissions';
import { userFormSchema } from '../../src/domain/validation/accounts';
import { userWireSchema, usersListWireSchema, type UserWire } from '../../src/domain/user';
import type { Caller } from '../auth/context';
import { revokeAllForUser } from '../auth/tokens';
import type { Db } from '../db/connection';
import { apiKeys, organizationRelationships, organizations, roles, users } from '../db/schema';
import type { ServerDeps } from '../deps';
import { administeredOrg, canAdministerOrg, mailSetPasswordLink } from './account-admin';
import { idPath, isUuid } from './query';
import { errorAnswer, forbidden, HttpError, isUniqueViolation, parseForm, unprocessable } from '../core/errors';
import { nextVersion, sameVersion } from '../db/rows';
import { documentedObject } from './route-validation';
import { expectVersion, ifMatchHeader, preconditionFailed, replyVersion } from './versioning';
import { canAssignRole, findRole } from './roles';

/**
 * part 2 §8: a user call answering 422 shows 'User not found'; on the edit form a message with
 * 'find' shows 'The selected user could not be found'. This one message gives both.
 */
export const USER_NOT_FOUND_MESSAGE = 'User not found: could not find this user in your organizations';
/** part 2 §8 'Add user': a 422 whose message contains 'Email' → 'Email is already in use. Please try another one.' */
export const EMAIL_IN_USE_MESSAGE = 'Email is already in use. Please try another one.';
export const CANNOT_DELETE_SELF_MESSAGE = 'You cannot delete your own user';
export const ROLE_NOT_ASSIGNABLE_MESSAGE = 'Not authorized to assign a role with more permissions than your own';
export const USER_NOT_MANAGEABLE_MESSAGE = 'Not authorized to change a user whose role has more permissions than your own';

const userNotFound = () => unprocessable(USER_NOT_FOUND_MESSAGE, 'user_not_found');

/** The wire names of the domain's user form fields. */
const USER_FIELDS = { firstName: 'firstname', lastName: 'lastname', email: 'email', roleId: 'role_id' } as const;
const PATCH_FIELDS = { firstName: 'firstName', lastName: 'lastName' } as const;

const NAME_MAX = 100;
const EMAIL_MAX = 254;

/** Types and sizes first; the domain's form schema then gives the spec's messages. */
const userBody = z.object({
  id: z.string().max(100).optional(),
  firstname: z.string().max(NAME_MAX).nullish(),
  lastname: z.string().max(NAME_MAX).nullish(),
  email: z.string().max(EMAIL_MAX).nullish(),
  role_id: z.unknown().optional(),
  organization_id: z.string().max(100).nullish(),
});
const patchBody = z.object({
  firstName: z.string().max(NAME_MAX).nullish(),
  lastName: z.string().max(NAME_MAX).nullish(),
});

const listQuery = z.object({ organization_id: z.string().max(100).optional() });

/** A user as the user calls answer it: the list's row, with the organization it belongs to. */
const userAnswer = userWireSchema.extend({ organization_id: z.string(), organization_name: z.string().nullable() });
const usersAnswer = usersListWireSchema.extend({
  organization_users: z.array(userAnswer),
  organization_managers: z.array(userAnswer),
  organization_accessors: z.array(userAnswer),
});

type UserRow = typeof users.$inferSelect;

/** The user wire of part 2 §3 (src/domain/user.ts), with the organization it belongs to. */
export function userWire(
  user: UserRow,
  organizationName: string | null = null,
  roleName: string | null = null,
): UserWire & { organization_id: string; organization_name: string | null } {
  return {
    ...(roleName === null ? {} : { role_name: roleName }),
    id: user.id,
    email: user.email,
    firstname: user.firstname,
    lastname: user.lastname,
    role_id: user.roleId,
    sign_in_count: user.signInCount,
    last_sign_in_at: user.lastSignInAt?.toISOString() ?? null,
    organization_id: user.organizationId,
    organization_name: organizationName,
    version: user.version,
  };
}

/** Any one of the user or user-admin variants of an action (part 1 §6: manage sets all four). */
const userAction =
  (action: AccountsUserAction) =>
  (caller: Caller): boolean =>
    canAdministerUsers(caller.permissions, action);

/** A role the caller may assign, or 422 (unknown role) / 403 (more than the caller's own). */
async function assignableRole(db: Db, caller: Caller, roleId: number) {
  const role = await findRole(db, roleId);
  if (!role) throw unprocessable('role_id: Role not found', 'invalid', { fields: { role_id: 'Role not found' } });
  if (!canAssignRole(caller.permissions, role.permissions)) throw forbidden(ROLE_NOT_ASSIGNABLE_MESSAGE);
  return role;
}

/**
 * A live user the caller administers (a user of an organization they administer), else 422
 * 'User not found'; a user whose role exceeds the caller's → 403.
 */
async function manageableUser(db: Db, caller: Caller, id: string): Promise<UserRow> {
  if (!isUuid(id)) throw userNotFound();
  const [row] = await db
    .select({ user: users, permissions: roles.permissions })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .where(and(eq(users.id, id), isNull(users.deletedAt), isNull(organizations.deletedAt)))
    .limit(1);
  if (!row || !canAdministerOrg(caller.scope, row.user.organizationId)) throw userNotFound();
  if (!canAssignRole(caller.permissions, row.permissions)) throw forbidden(USER_NOT_MANAGEABLE_MESSAGE);
  return row.user;
}

async function emailTaken(db: Db, email: string, exceptId: string | null): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${email})`, isNull(users.deletedAt)))
    .limit(2);
  return rows.some((row) => row.id !== exceptId);
}

const emailInUse = () => unprocessable(EMAIL_IN_USE_MESSAGE, 'email_taken', { fields: { email: EMAIL_IN_USE_MESSAGE } });

export function userRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  async function orgName(id: string): Promise<string | null> {
    const [row] = await db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, id)).limit(1);
    return row?.name ?? null;
  }

  async function usersOf(orgIds: readonly string[]) {
    if (orgIds.length === 0) return [];
    const rows = await db
      .select({ user: users, orgName: organizations.name, roleName: roles.name })
      .from(users)
      .innerJoin(organizations, eq(organizations.id, users.organizationId))
      .innerJoin(roles, eq(roles.id, users.roleId))
      .where(and(inArray(users.organizationId, [...orgIds]), isNull(users.deletedAt), isNull(organizations.deletedAt)))
      .orderBy(asc(sql`lower(${users.lastname})`), asc(sql`lower(${users.firstname})`), asc(users.id));
    return rows.map((row) => userWire(row.user, row.orgName, row.roleName));
  }

  async function relatedOrgIds(orgId: string, type: 'manager' | 'accessor'): Promise<string[]> {
    const rows = await db
      .select({ id: organizationRelationships.relatedOrganizationId })
      .from(organizationRelationships)
      .where(and(eq(organizationRelationships.organizationId, orgId), eq(organizationRelationships.relationshipType, type)));
    return rows.map((row) => row.id);
  }

  /**
   * part 2 §7 GET /organization/users: the organization's users, and the users of the
   * organizations that manage it (badge MANAGER) or access it (badge ACCESS). Query
   * `organization_id` (optional): an organization the caller administers; default their own.
   */
  api.get(
    '/organization/users',
    {
      config: { access: section('accounts').anyOf },
      schema: {
        summary: "An organization's users, managers and accessors",
        querystring: listQuery,
        response: { 200: usersAnswer, 404: errorAnswer },
      },
    },
    async (request) => {
      const { caller, query } = request;
      const org = await administeredOrg(db, caller, query.organization_id);
      return {
        organization_users: await usersOf([org.id]),
        organization_managers: await usersOf(await relatedOrgIds(org.id, 'manager')),
        organization_accessors: await usersOf(await relatedOrgIds(org.id, 'accessor')),
      };
    },
  );

  /** part 2 §7 POST /users (legacy POST /users/): a user without a password, mailed a set-password link. */
  const createUser = async (request: FastifyRequest<{ Body: z.infer<typeof userBody> }>, reply: FastifyReply) => {
    const { caller, body } = request;
    const form = parseForm(
      userFormSchema,
      { firstName: body.firstname ?? '', lastName: body.lastname ?? '', email: body.email ?? '', roleId: body.role_id },
      USER_FIELDS,
    );
    const org = await administeredOrg(db, caller, body.organization_id);
    const role = await assignableRole(db, caller, form.roleId);
    if (await emailTaken(db, form.email, null)) throw emailInUse();
    const now = deps.now();
    let created: UserRow | undefined;
    try {
      [created] = await db
        .insert(users)
        .values({
          organizationId: org.id,
          email: form.email,
          firstname: form.firstName,
          lastname: form.lastName,
          roleId: role.id,
          createdBy: caller.userId,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
    } catch (error) {
      if (isUniqueViolation(error)) throw emailInUse();
      throw error;
    }
    if (!created) throw new HttpError(500, 'internal', 'Unknown failure');
    await mailSetPasswordLink(deps, created, now);
    return reply.code(201).send(userWire(created, org.name));
  };
  const create = {
    config: { access: userAction('canCreate') },
    schema: { summary: 'Add a user, mailed a set-password link', body: userBody, response: { 201: userAnswer, 404: errorAnswer } },
  };
  api.post('/users', create, createUser);
  api.post('/users/', { ...create, schema: { ...create.schema, summary: 'Add a user (the legacy path of POST /users)' } }, createUser);

  /** The user a PUT or PATCH edits (one the caller administers) and the version its If-Match names. */
  async function editedUser(request: FastifyRequest, id: string): Promise<{ target: UserRow; expected: number | null }> {
    const target = await manageableUser(db, request.caller, id);
    return { target, expected: expectVersion(request, 'user', target.version) };
  }

  /**
   * part 2 §7 PUT /users/{id}: firstname, lastname, email, id, role_id; the legacy form sends no
   * email (the e-mail stays).
   */
  api.put(
    '/users/:id',
    {
      config: { access: userAction('canUpdate') },
      schema: {
        summary: "Edit a user's names, e-mail and role",
        params: idPath,
        body: userBody,
        headers: documentedObject({ ...ifMatchHeader }),
        response: { 200: userAnswer, 412: errorAnswer },
      },
    },
    async (request, reply) => {
      const { caller, body } = request;
      const { target, expected } = await editedUser(request, request.params.id);
      if (body.id !== undefined && body.id !== target.id) {
        throw unprocessable('id: must be the id of the path', 'invalid', { fields: { id: 'must be the id of the path' } });
      }
      const form = parseForm(
        userFormSchema,
        {
          firstName: body.firstname ?? '',
          lastName: body.lastname ?? '',
          email: body.email === undefined ? target.email : (body.email ?? ''),
          roleId: body.role_id,
        },
        USER_FIELDS,
      );
      const role = form.roleId === target.roleId ? null : await assignableRole(db, caller, form.roleId);
      if (form.email.toLowerCase() !== target.email.toLowerCase() && (await emailTaken(db, form.email, target.id))) throw emailInUse();
      let updated: UserRow | undefined;
      try {
        [updated] = await db
          .update(users)
          .set({
            firstname: form.firstName,
            lastname: form.lastName,
            email: form.email,
            roleId: role?.id ?? target.roleId,
            updatedAt: deps.now(),
            version: nextVersion(users.version),
          })
          .where(and(eq(users.id, target.id), sameVersion(users.version, expected)))
          .returning();
      } catch (error) {
        if (isUniqueViolation(error)) throw emailInUse();
        throw error;
      }
      if (!updated) throw expected === null ? userNotFound() : preconditionFailed('user');
      // A new role: the user's open sockets narrow (or widen) to its permissions at once.
      if (updated.roleId !== target.roleId) deps.events.emit('access-changed', { userIds: [updated.id] });
      return replyVersion(reply, userWire(updated, await orgName(updated.organizationId)));
    },
  );

  /** part 2 §7 PATCH /users/{userId}: firstName and lastName (camelCase, as §7 shows); the answer's id updates the list. */
  api.patch(
    '/users/:id',
    {
      config: { access: userAction('canUpdate') },
      schema: {
        summary: "Edit a user's names",
        params: idPath,
        body: patchBody,
        headers: documentedObject({ ...ifMatchHeader }),
        response: { 200: userAnswer, 412: errorAnswer },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const { target, expected } = await editedUser(request, request.params.id);
      const form = parseForm(
        userFormSchema.pick({ firstName: true, lastName: true }),
        { firstName: body.firstName ?? '', lastName: body.lastName ?? '' },
        PATCH_FIELDS,
      );
      const [updated] = await db
        .update(users)
        .set({ firstname: form.firstName, lastname: form.lastName, updatedAt: deps.now(), version: nextVersion(users.version) })
        .where(and(eq(users.id, target.id), sameVersion(users.version, expected)))
        .returning();
      if (!updated) throw expected === null ? userNotFound() : preconditionFailed('user');
      return replyVersion(reply, userWire(updated, await orgName(updated.organizationId)));
    },
  );

  /**
   * part 2 §7 DELETE /users/{id} → { uuid }: a soft delete; the user's sessions end at once
   * (tokens revoked, sockets told through 'tokens-revoked') and their API keys stop working.
   */
  api.delete(
    '/users/:id',
    {
      config: { access: userAction('canDelete') },
      schema: { summary: 'Delete a user: sessions end, API keys stop', params: idPath, response: { 200: z.object({ uuid: z.string() }) } },
    },
    async (request) => {
      const { caller } = request;
      const { id } = request.params;
      const target = await manageableUser(db, caller, id);
      if (target.id === caller.userId) throw unprocessable(CANNOT_DELETE_SELF_MESSAGE, 'cannot_delete_self');
      const now = deps.now();
      await db.update(users).set({ deletedAt: now, updatedAt: now }).where(eq(users.id, target.id));
      await db
        .update(apiKeys)
        .set({ revokedAt: now })
        .where(and(eq(apiKeys.userId, target.id), isNull(apiKeys.revokedAt)));
      const revoked = await revokeAllForUser(db, target.id, now);
      if (revoked.length) deps.events.emit('tokens-revoked', revoked);
      return { uuid: target.id };
    },
  );
}
