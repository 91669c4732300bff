/** A closure's status as a coloured dot with its word for screen readers (part 2 §4 Closure status). */
import type { ClosureStatus } from '../../domain/closure';
import { CLOSURE_TEXT } from '../../domain/labels';

export function ClosureStatusIcon({ status }: { status: ClosureStatus }) {
  return (
    <span
      className="closure-status-icon"
      data-status={status}
      role="img"
      aria-label={CLOSURE_TEXT.statuses[status]}
      title={CLOSURE_TEXT.statuses[status]}
    />
  );
}
