/**
 * The closure form's status and scheduler part (part 2 §4 "Closure form modes", §5 Closure).
 *
 * - Active: immediate, needs an end time.
 * - Scheduled: start and end times; it becomes active on save if the start is already past.
 * - Inactive: times cleared.
 * - The active and scheduled switches disable each other.
 * - Automated closures (asset associated) hide the status section.
 *
 * Times are ms since the epoch. The form's validation schema (messages such as 'End date
 * required') lives in validation/; this file holds the rules.
 */
import { CLOSURE_MAX_AHEAD_MONTHS, MINUTE_MS } from './constants';
import { addCalendarMonths, type Closure, type ClosureType } from './closure';

export const CLOSURE_FORM_MODES = ['active', 'scheduled', 'inactive'] as const;
export type ClosureFormMode = (typeof CLOSURE_FORM_MODES)[number];

/** The fields of the closure form this file reads and writes. */
export interface ClosureFormStatus {
  closureType: ClosureType;
  thingId: string | null;
  /** The "active" switch. */
  isActive: boolean;
  /** The "scheduled" switch. */
  isScheduled: boolean;
  startTime: number | null;
  endTime: number | null;
}

export function closureFormMode(form: Pick<ClosureFormStatus, 'isActive' | 'isScheduled'>): ClosureFormMode {
  if (form.isActive) return 'active';
  if (form.isScheduled) return 'scheduled';
  return 'inactive';
}

/**
 * Switches the form to a mode. Turning one switch on turns the other off (they disable each
 * other). Active is immediate, so its start is cleared (the save time is the start) and the end
 * is kept; scheduled keeps both times; inactive clears both.
 */
export function applyClosureMode<T extends ClosureFormStatus>(form: T, mode: ClosureFormMode): T {
  switch (mode) {
    case 'active':
      return { ...form, isActive: true, isScheduled: false, startTime: null };
    case 'scheduled':
      return { ...form, isActive: false, isScheduled: true };
    case 'inactive':
      return { ...form, isActive: false, isScheduled: false, startTime: null, endTime: null };
  }
}

/** Which switch is disabled: each one while the other is on. */
export function closureSwitchesDisabled(form: Pick<ClosureFormStatus, 'isActive' | 'isScheduled'>): {
  active: boolean;
  scheduled: boolean;
} {
  return { active: form.isScheduled, scheduled: form.isActive };
}

/**
 * Whether saving makes the closure active: always in active mode; in scheduled mode when the
 * start is at or before `now` ("already past") and the end, if any, is still ahead (a window that
 * has wholly passed does not activate); never when inactive.
 */
export function isClosureActiveOnSave(
  form: Pick<ClosureFormStatus, 'isActive' | 'isScheduled' | 'startTime' | 'endTime'>,
  now: number,
): boolean {
  switch (closureFormMode(form)) {
    case 'active':
      return true;
    case 'scheduled':
      return form.startTime !== null && form.startTime <= now && (form.endTime === null || form.endTime > now);
    case 'inactive':
      return false;
  }
}

/**
 * The times and flag a save sends (part 2 §4): active starts now (an already active closure
 * being edited keeps its start); scheduled sends its times; inactive sends none.
 */
export function closureTimesOnSave(
  form: Pick<ClosureFormStatus, 'isActive' | 'isScheduled' | 'startTime' | 'endTime'>,
  now: number,
): { isActive: boolean; startTime: number | null; endTime: number | null } {
  switch (closureFormMode(form)) {
    case 'active':
      return { isActive: true, startTime: form.startTime ?? now, endTime: form.endTime };
    case 'scheduled':
      return { isActive: isClosureActiveOnSave(form, now), startTime: form.startTime, endTime: form.endTime };
    case 'inactive':
      return { isActive: false, startTime: null, endTime: null };
  }
}

/** part 2 §5, §9: an end time at most 3 calendar months ahead (UTC, day clamped). */
export function closureEndLimit(now: number): number {
  return addCalendarMonths(now, CLOSURE_MAX_AHEAD_MONTHS);
}

/** part 2 §5: date pickers run from now to 3 months ahead, with minute granularity. */
export function closurePickerRange(now: number): { min: number; max: number; stepMs: number } {
  return { min: now, max: closureEndLimit(now), stepMs: MINUTE_MS };
}

/** The end time is within the limit (the limit itself allowed). */
export function isWithinClosureEndLimit(endTime: number, now: number): boolean {
  return endTime <= closureEndLimit(now);
}

/** part 2 §4: "Automated closures (asset associated) hide the status section." */
export function hidesStatusSection(form: Pick<ClosureFormStatus, 'closureType' | 'thingId'>): boolean {
  return form.closureType === 'automated' && Boolean(form.thingId);
}

/**
 * The form's status part for an existing closure: active when it is active; scheduled when it
 * has a start time; otherwise inactive (with no times).
 */
export function closureFormStatusFrom(
  closure: Pick<Closure, 'closureType' | 'thingId' | 'isActive' | 'startTime' | 'endTime'>,
): ClosureFormStatus {
  const base: ClosureFormStatus = {
    closureType: closure.closureType,
    thingId: closure.thingId,
    isActive: closure.isActive,
    isScheduled: !closure.isActive && closure.startTime !== null,
    startTime: closure.startTime,
    endTime: closure.endTime,
  };
  return closureFormMode(base) === 'inactive' ? { ...base, startTime: null, endTime: null } : base;
}
