/**
 * Trips, hazard, R2R and export/report forms (part 2 §2, §5). Each depends on the moment, so
 * each is a factory taking `now` (ms). Times are ms since the epoch; a missing time is null.
 *
 * A date that cannot be read (a year 0000) or lies outside 1970–2100 says so ('Enter a date between
 * 1970 and 2100') and is not checked further. A past range is checked in this order, each message on the field it concerns: start and end
 * not after now ('Must be past date'; now itself is allowed), then on the end: equal
 * ('Dates must be different'), before the start ('End time must be after Start time'), longer
 * than the maximum (exactly the maximum is allowed).
 */
import { z } from 'zod';
import {
  EXPORT_RANGE_MAX_MS,
  HAZARD_RANGE_MAX_MS,
  HAZARD_SEVERITIES,
  HAZARD_TYPES,
  REPORT_ASSETS_MAX,
  REPORT_ASSETS_MIN,
  TRIP_RANGE_MAX_MS,
} from '../constants';
import { CLOSURE_EXPORT_INCLUDES, EXPORT_TYPES } from '../export';
import { dateInputField, readableDate, requiredId, requiredString } from './fields';
import { MESSAGES } from './messages';

type Ctx = z.RefinementCtx;
type Time = number | null | undefined;

const present = (time: Time): time is number => time !== null && time !== undefined;

function issue(ctx: Ctx, path: string, message: string): void {
  ctx.addIssue({ code: 'custom', path: [path], message });
}

/** The range rules shared by the date-range forms (see the file comment). */
function checkPastRange(
  ctx: Ctx,
  range: { readonly startTime?: Time; readonly endTime?: Time },
  rules: { now: number; maxMs: number; maxMessage: string; required: boolean },
): void {
  const startTime = readableDate(ctx, 'startTime', range.startTime);
  const endTime = readableDate(ctx, 'endTime', range.endTime);
  if (rules.required) {
    if (!present(range.startTime)) issue(ctx, 'startTime', MESSAGES.required);
    if (!present(range.endTime)) issue(ctx, 'endTime', MESSAGES.required);
  }
  if (present(startTime) && startTime > rules.now) issue(ctx, 'startTime', MESSAGES.pastDate);
  if (present(endTime) && endTime > rules.now) issue(ctx, 'endTime', MESSAGES.pastDate);
  if (!present(startTime) || !present(endTime)) return;
  if (endTime === startTime) issue(ctx, 'endTime', MESSAGES.datesDifferent);
  else if (endTime < startTime) issue(ctx, 'endTime', MESSAGES.endAfterStart);
  else if (endTime - startTime > rules.maxMs) issue(ctx, 'endTime', rules.maxMessage);
}

/** 1 to 5 assets: 'Must select at least 1 Asset', '5 Assets max'. */
const reportAssets = () =>
  z
    .array(z.union([z.string(), z.number()]))
    .min(REPORT_ASSETS_MIN, { error: MESSAGES.assetsMin })
    .max(REPORT_ASSETS_MAX, { error: MESSAGES.assetsMax });

// ── trips and date-range reports ─────────────────────────────────────────────
export function tripsFormSchema({ now }: { readonly now: number }) {
  return z
    .object({ thingIds: reportAssets(), startTime: dateInputField(), endTime: dateInputField() })
    .superRefine((form, ctx) =>
      checkPastRange(ctx, form, { now, maxMs: TRIP_RANGE_MAX_MS, maxMessage: MESSAGES.rangeMax24h, required: true }),
    );
}
export type TripsForm = z.infer<ReturnType<typeof tripsFormSchema>>;

// ── hazards ──────────────────────────────────────────────────────────────────
export function hazardReportSchema({ now }: { readonly now: number }) {
  return z
    .object({
      /** "at least 1 type or all" */
      allTypes: z.boolean(),
      types: z.array(z.enum(HAZARD_TYPES)),
      severities: z.array(z.enum(HAZARD_SEVERITIES)).optional(),
      startTime: dateInputField(),
      endTime: dateInputField(),
    })
    .superRefine((form, ctx) => {
      if (!form.allTypes && form.types.length === 0) issue(ctx, 'types', MESSAGES.hazardTypesMin);
      checkPastRange(ctx, form, { now, maxMs: HAZARD_RANGE_MAX_MS, maxMessage: MESSAGES.rangeMax24h, required: true });
    });
}
export type HazardReportForm = z.infer<ReturnType<typeof hazardReportSchema>>;

// ── R2R search ───────────────────────────────────────────────────────────────
/** The end is start plus 15 minutes: trip.ts `r2rWindow`; only the start is entered. */
export function r2rSearchSchema({ now }: { readonly now: number }) {
  return z.object({ thingId: requiredId(), startTime: dateInputField() }).superRefine((form, ctx) => {
    const startTime = readableDate(ctx, 'startTime', form.startTime);
    if (!present(form.startTime)) issue(ctx, 'startTime', MESSAGES.required);
    else if (present(startTime) && startTime > now) issue(ctx, 'startTime', MESSAGES.pastDate);
  });
}
export type R2RSearchForm = z.infer<ReturnType<typeof r2rSearchSchema>>;

// ── exports and reports ──────────────────────────────────────────────────────
// Field names follow export.ts's ExportForm, which `toExportRequest` turns into the payload.
export function exportFormSchema({ now }: { readonly now: number }) {
  return z
    .object({
      exportType: z.enum(EXPORT_TYPES, { error: MESSAGES.required }),
      title: requiredString(),
      useUtc: z.boolean({ error: MESSAGES.required }),
      organizationId: requiredString(),
      startTime: dateInputField().transform((time) => time ?? null),
      endTime: dateInputField().transform((time) => time ?? null),
      thingUuids: z.array(z.string()),
      /** Incident exports: include_no_thing_il. */
      includeNoThingIl: z.boolean(),
      /** Closure exports: closures_to_include (manual and/or feed). */
      closuresToInclude: z.array(z.enum(CLOSURE_EXPORT_INCLUDES)),
    })
    .superRefine((form, ctx) => {
      // The range is required except for asset exports; when given it is always checked.
      checkPastRange(ctx, form, {
        now,
        maxMs: EXPORT_RANGE_MAX_MS,
        maxMessage: MESSAGES.exceedsMaxRange,
        required: form.exportType !== 'thing',
      });
      if (form.exportType === 'point' && form.thingUuids.length === 0) issue(ctx, 'thingUuids', MESSAGES.assetsMin);
      if (form.exportType === 'closure' && form.thingUuids.length === 0 && form.closuresToInclude.length === 0) {
        issue(ctx, 'closuresToInclude', MESSAGES.closureExportContent);
      }
    });
}
/** Named apart from export.ts's `ExportForm` interface, which it matches. */
export type ExportFormValues = z.infer<ReturnType<typeof exportFormSchema>>;
