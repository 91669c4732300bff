import type { ReactNode } from 'react';
import { canSave } from '../../domain/validation/field-state';

/** part 1 §5, part 2 §5: Save is disabled unless the form changed, and while submitting. */
export function SaveButton({ dirty, submitting, children = 'Save' }: { dirty: boolean; submitting: boolean; children?: ReactNode }) {
  return (
    <button type="submit" className="button button-primary" disabled={!canSave({ dirty, submitting })}>
      {children}
    </button>
  );
}
