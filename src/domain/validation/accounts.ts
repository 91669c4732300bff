/**
 * Account administration forms (part 2 §5): user, organization (with its address) and device
 * configuration. Password changes use `resetPasswordSchema` (auth.ts), which part 2 §5 applies
 * to account administration as well.
 */
import { z } from 'zod';
import { API_KEY_DESCRIPTION_MAX, DEVICE_PIN_MAX, HEARTBEAT_INTERVAL_MAX_S } from '../constants';
import { checkPostalCode, requiredAddressShape } from './address';
import { EMAIL_PATTERN, emailField, requiredId, requiredString } from './fields';
import { MESSAGES } from './messages';
import { isStateOf } from '../regions';
import { isTimeZone } from '../time-zone';
import { resetPasswordSchema } from './auth';

export const userFormSchema = z.object({
  firstName: requiredString(),
  lastName: requiredString(),
  email: emailField(),
  roleId: z.number({ error: MESSAGES.required }).int({ error: MESSAGES.required }),
});
export type UserForm = z.infer<typeof userFormSchema>;

const optionalText = () => z.string().trim().optional();
/** A phone number, or '' for none (the profile's and the organization's phones). */
const optionalPhone = () =>
  z
    .string()
    .trim()
    .refine((value) => value === '' || isPhoneNumber(value), { error: MESSAGES.invalidPhone })
    .optional();

/**
 * The organization edit: the new accounts body (name and address) plus the legacy fields
 * (e-mail, phones, contact, organization type), which are optional. Every address field but line 2
 * is required.
 */
export const organizationFormSchema = z
  .object({
    name: requiredString(),
    ...requiredAddressShape(),
    email: z
      .string()
      .trim()
      .refine((value) => value === '' || EMAIL_PATTERN.test(value), { error: MESSAGES.invalidEmail })
      .optional(),
    phoneNumber: optionalPhone(),
    cellPhoneNumber: optionalPhone(),
    contactName: optionalText(),
    organizationTypeId: z.union([z.string(), z.number()]).nullish(),
    /** Left out: unchanged (the new accounts body of part 2 §7 has none). */
    timezone: timeZoneField().optional(),
  })
  .superRefine((form, ctx) => {
    checkPostalCode(form, ctx);
    checkStateOfCountry(form, ctx);
  });
export type OrganizationForm = z.infer<typeof organizationFormSchema>;

/** A GPIO pin: a whole number from 0 to DEVICE_PIN_MAX, written as digits. */
export function isDevicePin(value: string): boolean {
  return /^[0-9]{1,3}$/.test(value) && Number(value) <= DEVICE_PIN_MAX;
}

const heartbeatInterval = () =>
  z
    .number({ error: MESSAGES.heartbeatIntervalRange })
    .int({ error: MESSAGES.heartbeatIntervalRange })
    .min(1, { error: MESSAGES.heartbeatIntervalRange })
    .max(HEARTBEAT_INTERVAL_MAX_S, { error: MESSAGES.heartbeatIntervalRange });

/** Device configuration (part 2 §3, §5). Pins compare as trimmed text. */
export const deviceConfigSchema = z
  .object({
    fileName: requiredString(),
    platform: requiredString(),
    thingType: requiredId(),
    model: requiredString(),
    warningLightPin: requiredString().refine(isDevicePin, { error: MESSAGES.pinRange }),
    indicatorPin: optionalText().refine((pin) => !pin || isDevicePin(pin), { error: MESSAGES.pinRange }),
    password: z.string().optional(),
    heartbeatInterval: heartbeatInterval().nullish(),
    locationType: optionalText(),
  })
  .superRefine((form, ctx) => {
    if (form.indicatorPin && form.indicatorPin === form.warningLightPin) {
      ctx.addIssue({ code: 'custom', path: ['indicatorPin'], message: MESSAGES.indicatorPinSameAsWarning });
    }
  });
export type DeviceConfigForm = z.infer<typeof deviceConfigSchema>;

/** A new API key (part 2 §2 "API keys", §5 "Required strings are trimmed, min 1"): its description, as the server checks it. */
export const apiKeyFormSchema = z.object({
  description: requiredString({ max: API_KEY_DESCRIPTION_MAX, message: MESSAGES.max100 }),
});
export type ApiKeyForm = z.infer<typeof apiKeyFormSchema>;

/** The Assets tab's bulk 'Set type' (part 1 §7 PUT /things/{id}): the type required, the subtype optional ('' keeps the server's rule). */
export const bulkThingTypeSchema = z.object({
  thingType: z.string().trim().min(1, { error: MESSAGES.required }),
  thingSubtype: z.string(),
});
export type BulkThingTypeForm = z.infer<typeof bulkThingTypeSchema>;

// ── the signed-in user's own account (part 2 §2 accounts "account" tab, §5) ──

/** chosen: digits with spaces, dots, dashes, parentheses and a leading +; 7 to 20 digits. */
const PHONE_PATTERN = /^\+?[0-9 ().-]+$/;
const PHONE_DIGITS_MIN = 7;
const PHONE_DIGITS_MAX = 20;

export function isPhoneNumber(value: string): boolean {
  const digits = value.replace(/[^0-9]/g, '').length;
  return PHONE_PATTERN.test(value) && digits >= PHONE_DIGITS_MIN && digits <= PHONE_DIGITS_MAX;
}

/** part 2 §5 "Country-based state field": a US or Canadian address names one of its states or provinces. */
export function checkStateOfCountry(
  form: { readonly state?: string | undefined; readonly countryCode?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (!form.state || isStateOf(form.countryCode, form.state)) return;
  const country = (form.countryCode ?? '').trim().toUpperCase();
  ctx.addIssue({ code: 'custom', path: ['state'], message: country === 'CA' ? MESSAGES.invalidProvince : MESSAGES.invalidState });
}

/** The account tab's profile: names, an optional phone and the address (every field but line 2 required). */
export const profileFormSchema = z
  .object({
    firstName: requiredString(),
    lastName: requiredString(),
    phone: optionalPhone(),
    ...requiredAddressShape(),
  })
  .superRefine((form, ctx) => {
    checkPostalCode(form, ctx);
    checkStateOfCountry(form, ctx);
  });
export type ProfileForm = z.infer<typeof profileFormSchema>;

/**
 * Change password (part 2 §5 "Reset password (applies to account administration as well)"): the
 * current password, then the new one under the reset rules and its confirmation ('Should match
 * password'). The last-10 rule needs the history: the server checks it.
 */
export const changePasswordSchema = z
  .object({
    currentPassword: z.string({ error: MESSAGES.required }).refine((value) => value.length > 0, { error: MESSAGES.required }),
    password: z.string({ error: MESSAGES.required }),
    passwordConfirmation: z.string({ error: MESSAGES.required }),
  })
  .superRefine((form, ctx) => {
    const reset = resetPasswordSchema.safeParse({ password: form.password, passwordConfirmation: form.passwordConfirmation });
    if (reset.success) return;
    for (const issue of reset.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });
export type ChangePasswordForm = z.infer<typeof changePasswordSchema>;

/** An organization's time zone: one the runtime knows (the searchable list's). */
export function timeZoneField() {
  return z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, { error: MESSAGES.required })
    .refine((value) => isTimeZone(value), { error: MESSAGES.invalidTimeZone });
}
