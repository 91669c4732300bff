/**
 * How forms show validation (part 1 §5, part 2 §5): when an error shows, the text-area counter,
 * select virtualization and the save button.
 */
import { TEXTAREA_WARN_WITHIN, VIRTUALIZE_SELECT_OVER } from '../constants';

/** part 1 §5: "Text fields show an error only when touched and (dirty or submit failed)". */
export function showsFieldError(state: { readonly touched: boolean; readonly dirty: boolean; readonly submitFailed: boolean }): boolean {
  return state.touched && (state.dirty || state.submitFailed);
}

export interface TextAreaCounter {
  readonly count: number;
  readonly remaining: number;
  /** Within TEXTAREA_WARN_WITHIN characters of the limit (or over it). */
  readonly warn: boolean;
}

/** part 1 §5: "Text areas show a character count and warn within 5 characters of the limit." */
export function textAreaCounter(value: string, max: number): TextAreaCounter {
  const remaining = max - value.length;
  return { count: value.length, remaining, warn: remaining <= TEXTAREA_WARN_WITHIN };
}

/** part 1 §5: "Select lists over 20 options are virtualized." */
export function virtualizesSelect(optionCount: number): boolean {
  return optionCount > VIRTUALIZE_SELECT_OVER;
}

/** part 1 §5, part 2 §5: "Save is disabled unless the form changed or while submitting." */
export function canSave(state: { readonly dirty: boolean; readonly submitting: boolean }): boolean {
  return state.dirty && !state.submitting;
}

/**
 * Whether a form's values are those it opened with (part 1 §5, part 2 §5 "Save is disabled unless
 * the form changed"), for a form that keeps its values apart from the form kit: deep, field by
 * field, array by array, with NaN (an unreadable date, time.ts) equal to itself.
 */
export function sameFormValues(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every(
    (key) => Object.hasOwn(b, key) && sameFormValues((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}
