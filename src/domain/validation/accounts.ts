/**
 * Account administration forms (part 2 §5): user, organization (with its address) and device
 * configuration. Password changes use `resetPasswordSchema` (auth.ts), which part 2 §5 applies
 * to account administration as well.
 */
import { z } from 'zod';
import { checkPostalCode, requiredAddressShape } from './address';
import { EMAIL_PATTERN, emailField, requiredId, requiredString } from './fields';
import { MESSAGES } from './messages';

export const userFormSchema = z.object({
  firstName: requiredString(),
  lastName: requiredString(),
  email: emailField(),
  roleId: z.number({ error: MESSAGES.required }).int({ error: MESSAGES.required }),
});
export type UserForm = z.infer<typeof userFormSchema>;

const optionalText = () => z.string().trim().optional();

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
    phoneNumber: optionalText(),
    cellPhoneNumber: optionalText(),
    contactName: optionalText(),
    organizationTypeId: z.union([z.string(), z.number()]).nullish(),
  })
  .superRefine(checkPostalCode);
export type OrganizationForm = z.infer<typeof organizationFormSchema>;

/** Device configuration (part 2 §3, §5). Pins compare as trimmed text. */
export const deviceConfigSchema = z
  .object({
    fileName: requiredString(),
    platform: requiredString(),
    thingType: requiredId(),
    model: requiredString(),
    warningLightPin: requiredString(),
    indicatorPin: optionalText(),
    password: z.string().optional(),
    heartbeatInterval: z.number().int().positive().nullish(),
    locationType: optionalText(),
  })
  .superRefine((form, ctx) => {
    if (form.indicatorPin && form.indicatorPin === form.warningLightPin) {
      ctx.addIssue({ code: 'custom', path: ['indicatorPin'], message: MESSAGES.indicatorPinSameAsWarning });
    }
  });
export type DeviceConfigForm = z.infer<typeof deviceConfigSchema>;
