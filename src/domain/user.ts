/**
 * Users of account administration (part 2 §2 Account administration, §3 User, §7 user calls).
 * The profile (GET /profile) is profile.ts's; role labels are role.ts's.
 */
import { versionWireShape } from './address';
import { z } from 'zod';
import { roleLabel } from './role';
import { parseTime } from './time';

export const userWireSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstname: z.string().nullish(),
  lastname: z.string().nullish(),
  role_id: z.number().int().nullish(),
  /** The role's name (the list's rows carry it, so a role the caller may not assign still has its label). */
  role_name: z.string().nullish(),
  sign_in_count: z.number().int().nullish(),
  last_sign_in_at: z.string().nullish(),
  ...versionWireShape,
});
export type UserWire = z.infer<typeof userWireSchema>;

/** GET /organization/users (part 2 §7). */
export const usersListWireSchema = z.object({
  organization_users: z.array(userWireSchema),
  organization_managers: z.array(userWireSchema).nullish(),
  organization_accessors: z.array(userWireSchema).nullish(),
});
export type UsersListWire = z.infer<typeof usersListWireSchema>;

/** part 2 §2: "Managers get the badge MANAGER and access users get the badge ACCESS." */
export const USER_BADGES = { manager: 'MANAGER', accessor: 'ACCESS' } as const;
export type UserBadge = (typeof USER_BADGES)[keyof typeof USER_BADGES];

export interface User {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  roleId: number | null;
  /** The role's shown name (part 2 §6: Media, User, Admin, Org Admin), or null when not sent. */
  roleLabel: string | null;
  signInCount: number;
  lastSignInAt: number | null;
  /** Null for the organization's own users. */
  badge: UserBadge | null;
  /** The server's edit counter of the copy shown (the user form's If-Match). */
  version?: number | null;
}

export function fromUserWire(wire: UserWire, badge: UserBadge | null = null): User {
  return {
    id: wire.id,
    email: wire.email,
    firstName: wire.firstname ?? '',
    lastName: wire.lastname ?? '',
    roleId: wire.role_id ?? null,
    roleLabel: wire.role_name ? roleLabel(wire.role_name) : null,
    signInCount: wire.sign_in_count ?? 0,
    lastSignInAt: parseTime(wire.last_sign_in_at),
    badge,
    version: wire.version ?? null,
  };
}

/** "First Last", or the e-mail when both names are empty. */
export function userFullName(user: Pick<User, 'firstName' | 'lastName' | 'email'>): string {
  const name = `${user.firstName} ${user.lastName}`.trim();
  return name || user.email;
}

/**
 * The users list: the organization's users, then managers (badge MANAGER), then accessors
 * (badge ACCESS). A user listed twice keeps the first entry (own users win).
 */
export function usersFromListWire(wire: UsersListWire): User[] {
  const seen = new Set<string>();
  const users: User[] = [];
  const add = (list: readonly UserWire[] | null | undefined, badge: UserBadge | null): void => {
    for (const u of list ?? []) {
      if (seen.has(u.id)) continue;
      seen.add(u.id);
      users.push(fromUserWire(u, badge));
    }
  };
  add(wire.organization_users, null);
  add(wire.organization_managers, USER_BADGES.manager);
  add(wire.organization_accessors, USER_BADGES.accessor);
  return users;
}

// ── payloads (part 2 §7) ─────────────────────────────────────────────────────

export interface UserForm {
  firstName: string;
  lastName: string;
  email: string;
  roleId: number;
}

/** POST /users (also the legacy POST /users/). */
export interface CreateUserPayload {
  firstname: string;
  lastname: string;
  email: string;
  role_id: number;
}

/** PUT /users/{id}. */
export interface UpdateUserPayload extends CreateUserPayload {
  id: string;
}

/** Legacy PUT /users/{id}: firstname, lastname, role_id. */
export interface LegacyUpdateUserPayload {
  firstname: string;
  lastname: string;
  role_id: number;
}

/** PATCH /users/{userId}: the body carries firstName and lastName. */
export interface PatchUserPayload {
  firstName: string;
  lastName: string;
}

export function toCreateUserPayload(form: UserForm): CreateUserPayload {
  return {
    firstname: form.firstName.trim(),
    lastname: form.lastName.trim(),
    email: form.email.trim(),
    role_id: form.roleId,
  };
}

export function toUpdateUserPayload(id: string, form: UserForm): UpdateUserPayload {
  return { ...toCreateUserPayload(form), id };
}

export function toLegacyUpdateUserPayload(form: Omit<UserForm, 'email'>): LegacyUpdateUserPayload {
  return { firstname: form.firstName.trim(), lastname: form.lastName.trim(), role_id: form.roleId };
}

export function toPatchUserPayload(form: Pick<UserForm, 'firstName' | 'lastName'>): PatchUserPayload {
  return { firstName: form.firstName.trim(), lastName: form.lastName.trim() };
}

/**
 * Whether an edit of `user` changes only the names (the email and role as they were): that edit is
 * PATCH /users/{userId} with firstName and lastName (part 2 §7); any other is PUT /users/{id}.
 */
export function changesNamesOnly(user: Pick<User, 'email' | 'roleId'>, form: UserForm): boolean {
  return form.email.trim() === user.email && form.roleId === user.roleId;
}

/** PATCH /users/{userId} answer: its id updates the list. */
export const patchUserResponseSchema = z.object({ id: z.string() });
/** DELETE /users/{id} answer. */
export const deleteUserResponseSchema = z.object({ uuid: z.string() });
