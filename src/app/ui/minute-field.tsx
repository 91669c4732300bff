/**
 * A date and time input at minute precision (part 2 §5 "Date pickers ... with minute granularity"):
 * the browser's datetime-local control, its value read by the page in the user's time zone
 * (src/domain/time.ts `fromMinuteInput`), the form's message under it. A date the browser cannot
 * read (a year 0000 typed) reaches the form as UNREADABLE_DATE_TEXT, not as an empty value.
 */
import { useId } from 'react';
import { dateInputText, UNREADABLE_DATE_TEXT } from '../../domain/time';

export interface MinuteFieldProps {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string | null;
  /** The latest value the picker offers ('yyyy-MM-ddTHH:mm'); the form's schema still decides. */
  max?: string;
  /** 'date': a day only (R2R's run date). */
  kind?: 'datetime' | 'date' | 'time';
}

export function MinuteField({ label, value, onChange, error, max, kind = 'datetime' }: MinuteFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="field-input">
        <input
          id={id}
          type={kind === 'datetime' ? 'datetime-local' : kind}
          step={60}
          value={value === UNREADABLE_DATE_TEXT ? '' : value}
          max={max}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => onChange(dateInputText(event.target))}
        />
      </div>
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
