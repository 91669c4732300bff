/** A labelled on/off switch (part 1 §2 "a labelled toggle"): a checkbox with role switch, keyboard reachable. */
import { useId } from 'react';

export interface ToggleProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  className?: string;
  /** A short note after the label (a count), read as the switch's description, not its name. */
  note?: string;
}

export function Toggle({ label, checked, onChange, disabled, className, note }: ToggleProps) {
  const id = useId();
  const noteId = `${id}-note`;
  return (
    <div className={className ? `toggle ${className}` : 'toggle'}>
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={checked}
        disabled={disabled}
        aria-checked={checked}
        aria-describedby={note ? noteId : undefined}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      {note && (
        <span id={noteId} className="toggle-note">
          {note}
        </span>
      )}
    </div>
  );
}
