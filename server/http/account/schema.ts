import { z } from 'zod';
import { SIGN_IN_ERROR_CODES, WRONG_CURRENT_PASSWORD_TEXT } from '../../../src/domain/errors';
import { changePasswordSchema, profileFormSchema } from '../../../src/domain/validation/accounts';
import { ACCOUNT_LOCKED_MESSAGE } from '../../auth/lockout';
import { parseForm, unprocessable } from '../../core/errors';
import { addressBodyShape, addressFormValues, ADDRESS_WIRE_NAMES, bodyText } from '../address-body';

/**
 * The bodies, answers and texts of the signed-in user's own account calls (part 2 §3 User
 * "Profile adds ... phone and address fields"; §5 address and "Reset password"): sizes and types
 * here, the domain's profile and change-password forms for the spec's messages.
 */

export const WRONG_CURRENT_PASSWORD_MESSAGE = WRONG_CURRENT_PASSWORD_TEXT;

/** A wrong current password (the form's field named). */
export const wrongCurrentPassword = () =>
  unprocessable(WRONG_CURRENT_PASSWORD_MESSAGE, 'wrong_password', {
    fields: { current_password: WRONG_CURRENT_PASSWORD_MESSAGE },
  });
/** The account locked by wrong current passwords, as by wrong sign-ins (the form's field named). */
export const currentPasswordLocked = () =>
  unprocessable(ACCOUNT_LOCKED_MESSAGE, SIGN_IN_ERROR_CODES.lockedOut, { fields: { current_password: ACCOUNT_LOCKED_MESSAGE } });

// ── requests ─────────────────────────────────────────────────────────────────

export const profileBody = z.object({
  firstname: bodyText(),
  lastname: bodyText(),
  phone: z.string().max(50).nullish(),
  ...addressBodyShape,
});

const PROFILE_FIELDS = { firstName: 'firstname', lastName: 'lastname', phone: 'phone', ...ADDRESS_WIRE_NAMES } as const;

export const passwordBody = z.object({
  current_password: z.string().max(200).nullish(),
  password: z.string().max(200).nullish(),
  password_confirmation: z.string().max(200).nullish(),
});

const PASSWORD_FIELDS = {
  currentPassword: 'current_password',
  password: 'password',
  passwordConfirmation: 'password_confirmation',
} as const;

/** The domain's profile form over a PUT /profile body. */
export function validProfile(body: z.infer<typeof profileBody>) {
  return parseForm(
    profileFormSchema,
    {
      firstName: body.firstname ?? '',
      lastName: body.lastname ?? '',
      phone: body.phone ?? '',
      ...addressFormValues(body),
    },
    PROFILE_FIELDS,
  );
}

/** The domain's change-password form over a PUT /password body. */
export function validPasswordChange(body: z.infer<typeof passwordBody>) {
  return parseForm(
    changePasswordSchema,
    {
      currentPassword: body.current_password ?? '',
      password: body.password ?? '',
      passwordConfirmation: body.password_confirmation ?? '',
    },
    PASSWORD_FIELDS,
  );
}

// ── answers ──────────────────────────────────────────────────────────────────

export const passwordChangedAnswer = z.object({ message: z.string() });
