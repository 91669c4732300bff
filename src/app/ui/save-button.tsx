import type { ReactNode } from 'react';
import { canSave } from '../../domain/validation/field-state';
import { LeaveGuard } from './leave-guard';

/**
 * part 1 §5, part 2 §5: Save is disabled unless the form changed, and while submitting. A changed
 * form also keeps its page from being left without asking (LeaveGuard).
 */
export function SaveButton({ dirty, submitting, children = 'Save' }: { dirty: boolean; submitting: boolean; children?: ReactNode }) {
  return (
    <>
      <LeaveGuard when={dirty && !submitting} />
      <button type="submit" className="button button-primary" disabled={!canSave({ dirty, submitting })}>
        {children}
      </button>
    </>
  );
}
