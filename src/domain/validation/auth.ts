/**
 * Welcome forms (part 1 §2, §5; part 2 §5 "Reset password applies to account administration as
 * well"): sign-in, forgot password, unlock, reset password and the live password rule list.
 * Passwords are never trimmed (a space is a character of the password); a blank one is missing.
 */
import { z } from 'zod';
import { PASSWORD_MIN_LENGTH, PASSWORD_SPECIAL_CHARACTERS } from '../constants';
import { emailField } from './fields';
import { MESSAGES } from './messages';

/** Present: at least one non-space character; the value is kept as typed. */
function passwordField() {
  return z.string({ error: MESSAGES.required }).refine((value) => value.trim().length > 0, { error: MESSAGES.required });
}

export const signInSchema = z.object({
  email: emailField(),
  password: passwordField(),
});
export type SignInForm = z.infer<typeof signInSchema>;

export const forgotPasswordSchema = z.object({ email: emailField() });
export type ForgotPasswordForm = z.infer<typeof forgotPasswordSchema>;

/** The unlock page's "send a fresh link" form (docs/decisions/spec.md "the unlock flow"). */
export const unlockSchema = forgotPasswordSchema;
export type UnlockForm = ForgotPasswordForm;

// ── password rules (part 1 §5) ───────────────────────────────────────────────
export type PasswordRuleKey = 'length' | 'digit' | 'uppercase' | 'lowercase' | 'special';

export interface PasswordRule {
  readonly key: PasswordRuleKey;
  readonly label: string;
  readonly met: boolean;
}

const SPECIALS = new Set(PASSWORD_SPECIAL_CHARACTERS);

const RULES: readonly { key: PasswordRuleKey; label: string; test: (password: string) => boolean }[] = [
  { key: 'length', label: MESSAGES.passwordLength, test: (pw) => pw.length >= PASSWORD_MIN_LENGTH },
  { key: 'digit', label: MESSAGES.passwordDigit, test: (pw) => /[0-9]/.test(pw) },
  { key: 'uppercase', label: MESSAGES.passwordUppercase, test: (pw) => /[A-Z]/.test(pw) },
  { key: 'lowercase', label: MESSAGES.passwordLowercase, test: (pw) => /[a-z]/.test(pw) },
  { key: 'special', label: MESSAGES.passwordSpecial, test: (pw) => [...pw].some((ch) => SPECIALS.has(ch)) },
];

/** The live rule list under the new-password field, in order, each with whether it is met. */
export function passwordRules(password: string): readonly PasswordRule[] {
  return RULES.map((rule) => ({ key: rule.key, label: rule.label, met: rule.test(password) }));
}

/** New password and confirmation (part 1 §5: reset; part 2 §5: account administration too). */
export const resetPasswordSchema = z
  .object({
    password: passwordField(),
    passwordConfirmation: z.string({ error: MESSAGES.required }),
  })
  .superRefine((form, ctx) => {
    if (form.password.trim().length > 0) {
      for (const rule of passwordRules(form.password)) {
        if (!rule.met) ctx.addIssue({ code: 'custom', path: ['password'], message: rule.label });
      }
    }
    if (form.passwordConfirmation !== form.password) {
      ctx.addIssue({ code: 'custom', path: ['passwordConfirmation'], message: MESSAGES.shouldMatchPassword });
    }
  });
export type ResetPasswordForm = z.infer<typeof resetPasswordSchema>;
