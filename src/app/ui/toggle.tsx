/** A labelled on/off switch (part 1 §2 "a labelled toggle"): a checkbox with role switch, keyboard reachable. */
import { useId } from 'react';

export interface ToggleProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  className?: string;
}

export function Toggle({ label, checked, onChange, disabled, className }: ToggleProps) {
  const id = useId();
  return (
    <div className={className ? `toggle ${className}` : 'toggle'}>
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={checked}
        disabled={disabled}
        aria-checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}
