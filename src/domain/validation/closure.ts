/**
 * The closure form (part 2 §2, §4, §5). It depends on the moment (end time within 3 months) and
 * on the organization (direction required for WZDx organizations), so it is a factory.
 *
 * Status modes (part 2 §4, closure-form.ts): the active switch (immediate, needs an end time),
 * the scheduled switch (start and end), neither (inactive, times cleared). Automated closures with
 * an asset hide the status section (`hidesStatusSection`), so its rules do not apply to them. The
 * end limit is closure-form.ts's `closureEndLimit` (3 calendar months, the limit allowed).
 */
import { z } from 'zod';
import {
  CLOSURE_ALERT_MESSAGE_MAX,
  CLOSURE_DESCRIPTION_MAX,
  CLOSURE_DIRECTIONS,
  IMPACTED_LANES_MAX,
  IMPACTED_LANES_MIN,
  USER_ROUTE_MIN_POINTS,
  WZDX_ID_MAX,
} from '../constants';
import { closureEndLimit, closureFormMode, hidesStatusSection } from '../closure-form';
import { dateInputField, optionalString, pointSchema, readableDate, requiredString } from './fields';
import { MESSAGES } from './messages';

/** The closure types a form edits: feed closures are managed by the WZDx feed (part 2 §4). */
export const CLOSURE_FORM_TYPES = ['manual', 'automated'] as const;

const laneSchema = z
  .number({ error: MESSAGES.impactedLanesRange })
  .int({ error: MESSAGES.impactedLanesRange })
  .min(IMPACTED_LANES_MIN, { error: MESSAGES.impactedLanesRange })
  .max(IMPACTED_LANES_MAX, { error: MESSAGES.impactedLanesRange });

const blank = (value: string | null | undefined): boolean => !value || value.trim().length === 0;

export interface ClosureFormContext {
  readonly now: number;
  readonly isWzdxOrg: boolean;
}

export function closureFormSchema({ now, isWzdxOrg }: ClosureFormContext) {
  const maxEnd = closureEndLimit(now);
  return z
    .object({
      isDisplayed: z.boolean().optional(),
      closureType: z.enum(CLOSURE_FORM_TYPES, { error: MESSAGES.required }),
      thingId: z.string().nullish(),
      /** Label: FORM_LABEL.description. */
      description: requiredString({ max: CLOSURE_DESCRIPTION_MAX, message: MESSAGES.max100 }),
      alertMessage: optionalString({ max: CLOSURE_ALERT_MESSAGE_MAX, message: MESSAGES.max40 }),
      direction: z.union([z.enum(CLOSURE_DIRECTIONS), z.literal('')]).nullish(),
      impactedLanes: z.array(laneSchema),
      pathStart: pointSchema.nullish(),
      pathEnd: pointSchema.nullish(),
      /** The points the user placed. */
      userRoute: z.array(pointSchema),
      /** The route the directions service drew through them. */
      routePath: z.array(pointSchema),
      /** The active switch. */
      isActive: z.boolean(),
      /** The scheduled switch. */
      isScheduled: z.boolean(),
      startTime: dateInputField(),
      endTime: dateInputField(),
      isPublishOn: z.boolean(),
      wzdxId: z.string().trim().max(WZDX_ID_MAX, { error: MESSAGES.max100 }).optional(),
      locationMethod: z.string().trim().optional(),
      vehicleImpact: z.string().trim().optional(),
      /** Optional: free text or an existing group id. */
      groupId: z.string().trim().optional(),
    })
    .superRefine((form, ctx) => {
      const issue = (path: string, message: string): void => ctx.addIssue({ code: 'custom', path: [path], message });

      if (form.closureType === 'automated' && !form.thingId) issue('thingId', MESSAGES.required);
      if (form.routePath.length === 0) issue('routePath', MESSAGES.closureRoute);
      if (!form.pathStart) issue('pathStart', MESSAGES.required);
      if (!form.pathEnd) issue('pathEnd', MESSAGES.required);
      if (form.userRoute.length < USER_ROUTE_MIN_POINTS) issue('userRoute', MESSAGES.closureRoute);

      const mode = closureFormMode(form);
      if (!hidesStatusSection({ closureType: form.closureType, thingId: form.thingId ?? null }) && mode !== 'inactive') {
        // An unreadable date, or one outside 1970–2100, says so (readableDate) and is not checked further.
        const startTime = mode === 'scheduled' ? readableDate(ctx, 'startTime', form.startTime) : null;
        const endTime = readableDate(ctx, 'endTime', form.endTime);
        if (mode === 'scheduled' && (form.startTime === null || form.startTime === undefined)) {
          issue('startTime', MESSAGES.required);
        }
        if (form.endTime === null || form.endTime === undefined) issue('endTime', MESSAGES.endDateRequired);
        else if (endTime !== null && endTime > maxEnd) issue('endTime', MESSAGES.endDateTooFar);
        else if (endTime !== null && endTime <= now) issue('endTime', MESSAGES.endDateInPast);
        else if (endTime !== null && mode === 'scheduled' && startTime !== null && endTime <= startTime) {
          issue('endTime', MESSAGES.endAfterStart);
        }
      }

      if (isWzdxOrg && blank(form.direction)) issue('direction', MESSAGES.required);

      if (form.isPublishOn) {
        if (blank(form.wzdxId)) issue('wzdxId', MESSAGES.required);
        if (blank(form.locationMethod)) issue('locationMethod', MESSAGES.required);
        if (blank(form.vehicleImpact)) issue('vehicleImpact', MESSAGES.required);
      }
    });
}
export type ClosureForm = z.infer<ReturnType<typeof closureFormSchema>>;
