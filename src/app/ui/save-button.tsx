import type { ReactNode } from 'react';
import { canSave } from '../../domain/validation/field-state';
import { LeaveGuard } from './leave-guard';

export interface SaveButtonProps {
  dirty: boolean;
  submitting: boolean;
  children?: ReactNode;
  /**
   * A new item's form that saves as it opened, to show what it still needs (the closure form:
   * part 2 §5's texts on a Save with nothing filled); an edit never does.
   */
  savesUnchanged?: boolean;
  /** The form cannot save yet for a reason of its own (a path still being routed). */
  held?: boolean;
}

/**
 * part 1 §5, part 2 §5: Save is disabled unless the form changed, and while submitting. A changed
 * form also keeps its page from being left without asking (LeaveGuard).
 */
export function SaveButton({ dirty, submitting, children = 'Save', savesUnchanged = false, held = false }: SaveButtonProps) {
  return (
    <>
      <LeaveGuard when={dirty && !submitting} />
      <button type="submit" className="button button-primary" disabled={held || !canSave({ dirty: dirty || savesUnchanged, submitting })}>
        {children}
      </button>
    </>
  );
}
