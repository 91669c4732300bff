import { z } from 'zod';
import { userFormSchema } from '../../../src/domain/validation/accounts';
import { userWireSchema, usersListWireSchema } from '../../../src/domain/user';
import { parseForm, unprocessable } from '../../core/errors';

/**
 * The user calls' bodies, answers and texts (part 2 §3 User, §7 user calls, §8 'User calls', 'Add
 * user', 'Update user'): sizes and types here, the domain's user form schema for the spec's messages.
 */

// ── the §8 messages ──────────────────────────────────────────────────────────

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

export const userNotFound = () => unprocessable(USER_NOT_FOUND_MESSAGE, 'user_not_found');
export const emailInUse = () => unprocessable(EMAIL_IN_USE_MESSAGE, 'email_taken', { fields: { email: EMAIL_IN_USE_MESSAGE } });
export const roleNotFound = () => unprocessable('role_id: Role not found', 'invalid', { fields: { role_id: 'Role not found' } });
export const idNotOfPath = () =>
  unprocessable('id: must be the id of the path', 'invalid', { fields: { id: 'must be the id of the path' } });
export const cannotDeleteSelf = () => unprocessable(CANNOT_DELETE_SELF_MESSAGE, 'cannot_delete_self');

// ── requests ─────────────────────────────────────────────────────────────────

/** The wire names of the domain's user form fields. */
const USER_FIELDS = { firstName: 'firstname', lastName: 'lastname', email: 'email', roleId: 'role_id' } as const;
const PATCH_FIELDS = { firstName: 'firstName', lastName: 'lastName' } as const;

const NAME_MAX = 100;
const EMAIL_MAX = 254;

/** Types and sizes first; the domain's form schema then gives the spec's messages. */
export const userBody = z.object({
  id: z.string().max(100).optional(),
  firstname: z.string().max(NAME_MAX).nullish(),
  lastname: z.string().max(NAME_MAX).nullish(),
  email: z.string().max(EMAIL_MAX).nullish(),
  role_id: z.unknown().optional(),
  organization_id: z.string().max(100).nullish(),
});
export type UserBody = z.infer<typeof userBody>;

export const patchBody = z.object({
  firstName: z.string().max(NAME_MAX).nullish(),
  lastName: z.string().max(NAME_MAX).nullish(),
});

export const listQuery = z.object({ organization_id: z.string().max(100).optional() });

/** The domain's user form over a POST or PUT body; a PUT without `email` (the legacy form) keeps `keptEmail`. */
export function validUser(body: UserBody, keptEmail?: string) {
  const email = body.email === undefined && keptEmail !== undefined ? keptEmail : (body.email ?? '');
  return parseForm(
    userFormSchema,
    { firstName: body.firstname ?? '', lastName: body.lastname ?? '', email, roleId: body.role_id },
    USER_FIELDS,
  );
}

/** The domain's first and last name rules over a PATCH body. */
export function validNames(body: z.infer<typeof patchBody>) {
  return parseForm(
    userFormSchema.pick({ firstName: true, lastName: true }),
    { firstName: body.firstName ?? '', lastName: body.lastName ?? '' },
    PATCH_FIELDS,
  );
}

// ── answers ──────────────────────────────────────────────────────────────────

/** A user as the user calls answer it: the list's row, with the organization it belongs to. */
export const userAnswer = userWireSchema.extend({ organization_id: z.string(), organization_name: z.string().nullable() });
export const usersAnswer = usersListWireSchema.extend({
  organization_users: z.array(userAnswer),
  organization_managers: z.array(userAnswer),
  organization_accessors: z.array(userAnswer),
});
export const userDeletedAnswer = z.object({ uuid: z.string() });
