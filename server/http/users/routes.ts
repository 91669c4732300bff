import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { canAdministerUsers, section, type AccountsUserAction } from '../../../src/domain/permissions';
import type { Caller } from '../../auth/context';
import type { Db } from '../../db/connection';
import type { ServerDeps } from '../../deps';
import { errorAnswer, forbidden, HttpError } from '../../core/errors';
import { mailSetPasswordLink } from '../../mail/welcome-mail';
import { administeredOrg, canAdministerOrg } from '../account-admin';
import { idPath } from '../query';
import { documentedObject } from '../route-validation';
import { findRole } from '../roles/repository';
import { canAssignRole } from '../roles/schema';
import { expectVersion, ifMatchHeader, preconditionFailed, replyVersion } from '../versioning';
import {
  deleteUser,
  findOrganizationName,
  findUserWithRole,
  insertUser,
  isEmailTaken,
  listRelatedOrgIds,
  listUsersOf,
  renameUser,
  updateUser,
  type UserRow,
  userWire,
} from './repository';
import {
  cannotDeleteSelf,
  emailInUse,
  idNotOfPath,
  listQuery,
  patchBody,
  ROLE_NOT_ASSIGNABLE_MESSAGE,
  roleNotFound,
  USER_NOT_MANAGEABLE_MESSAGE,
  userAnswer,
  userBody,
  type UserBody,
  userDeletedAnswer,
  userNotFound,
  usersAnswer,
  validNames,
  validUser,
} from './schema';

/**
 * Users of account administration (part 2 §2, §3 User, §6 accounts row, §7 user calls and the
 * legacy POST /users/ and PUT /users/{id}; §8 rows 'User calls', 'Add user', 'Update user').
 */

/** Any one of the user or user-admin variants of an action (part 1 §6: manage sets all four). */
const userAction =
  (action: AccountsUserAction) =>
  (caller: Caller): boolean =>
    canAdministerUsers(caller.permissions, action);

/** A role the caller may assign, or 422 (unknown role) / 403 (more than the caller's own). */
async function assignableRole(db: Db, caller: Caller, roleId: number) {
  const role = await findRole(db, roleId);
  if (!role) throw roleNotFound();
  if (!canAssignRole(caller.permissions, role.permissions)) throw forbidden(ROLE_NOT_ASSIGNABLE_MESSAGE);
  return role;
}

/**
 * A live user the caller administers (a user of an organization they administer), else 422
 * 'User not found'; a user whose role exceeds the caller's → 403.
 */
async function manageableUser(db: Db, caller: Caller, id: string): Promise<UserRow> {
  const row = await findUserWithRole(db, id);
  if (!row || !canAdministerOrg(caller.scope, row.user.organizationId)) throw userNotFound();
  if (!canAssignRole(caller.permissions, row.permissions)) throw forbidden(USER_NOT_MANAGEABLE_MESSAGE);
  return row.user;
}

/** The user a PUT or PATCH edits (one the caller administers) and the version its If-Match names. */
async function editedUser(db: Db, request: FastifyRequest, id: string): Promise<{ target: UserRow; expected: number | null }> {
  const target = await manageableUser(db, request.caller, id);
  return { target, expected: expectVersion(request, 'user', target.version) };
}

export function userRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

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
        organization_users: await listUsersOf(db, [org.id]),
        organization_managers: await listUsersOf(db, await listRelatedOrgIds(db, org.id, 'manager')),
        organization_accessors: await listUsersOf(db, await listRelatedOrgIds(db, org.id, 'accessor')),
      };
    },
  );

  /** part 2 §7 POST /users (legacy POST /users/): a user without a password, mailed a set-password link. */
  const createUser = async (request: FastifyRequest<{ Body: UserBody }>, reply: FastifyReply) => {
    const { caller, body } = request;
    const form = validUser(body);
    const org = await administeredOrg(db, caller, body.organization_id);
    const role = await assignableRole(db, caller, form.roleId);
    if (await isEmailTaken(db, form.email, null)) throw emailInUse();
    const now = deps.now();
    const created = await insertUser(
      db,
      {
        organizationId: org.id,
        email: form.email,
        firstname: form.firstName,
        lastname: form.lastName,
        roleId: role.id,
        createdBy: caller.userId,
      },
      now,
    );
    if (created === 'email_taken') throw emailInUse();
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
      const { target, expected } = await editedUser(db, request, request.params.id);
      if (body.id !== undefined && body.id !== target.id) throw idNotOfPath();
      const form = validUser(body, target.email);
      const role = form.roleId === target.roleId ? null : await assignableRole(db, caller, form.roleId);
      if (form.email.toLowerCase() !== target.email.toLowerCase() && (await isEmailTaken(db, form.email, target.id))) throw emailInUse();
      const edit = { firstname: form.firstName, lastname: form.lastName, email: form.email, roleId: role?.id ?? target.roleId };
      const updated = await updateUser(db, target.id, expected, edit, deps.now());
      if (updated === 'email_taken') throw emailInUse();
      if (!updated) throw expected === null ? userNotFound() : preconditionFailed('user');
      // A new role: the user's open sockets narrow (or widen) to its permissions at once.
      if (updated.roleId !== target.roleId) deps.events.emit('access-changed', { userIds: [updated.id] });
      return replyVersion(reply, userWire(updated, await findOrganizationName(db, updated.organizationId)));
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
      const { target, expected } = await editedUser(db, request, request.params.id);
      const form = validNames(request.body);
      const updated = await renameUser(db, target.id, expected, { firstname: form.firstName, lastname: form.lastName }, deps.now());
      if (!updated) throw expected === null ? userNotFound() : preconditionFailed('user');
      return replyVersion(reply, userWire(updated, await findOrganizationName(db, updated.organizationId)));
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
      schema: { summary: 'Delete a user: sessions end, API keys stop', params: idPath, response: { 200: userDeletedAnswer } },
    },
    async (request) => {
      const { caller } = request;
      const target = await manageableUser(db, caller, request.params.id);
      if (target.id === caller.userId) throw cannotDeleteSelf();
      const revoked = await deleteUser(db, target.id, deps.now());
      if (revoked.length) deps.events.emit('tokens-revoked', revoked);
      return { uuid: target.id };
    },
  );
}
