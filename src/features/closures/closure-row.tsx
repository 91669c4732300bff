/**
 * One row of the closures list (part 2 §2): the status icon, the description, the secondary label
 * ('by {asset}', the WZDx id or 'Manual Closure'), the WZDx badge and the out-of-service tag; a
 * manual closure also has the quick Activate/Deactivate toggle. 70 px, or 90 px with a tag line
 * (closureRowHeight).
 */
import type { CSSProperties } from 'react';
import { closureConnection, hasQuickToggle, hasWzdxBadge, type Closure } from '../../domain/closure';
import { CLOSURE_TEXT } from '../../domain/labels';
import { ClosureStatusIcon } from './closure-status-icon';

export interface ClosureRowProps {
  closures: readonly Closure[];
  /** The toggle's state while a quick update is on its way (id → the state asked for). */
  toggling: Readonly<Record<string, boolean>>;
  /** Whether the user may use a closure's quick toggle (closure update or manage, its organization written). */
  canToggle(closure: Closure): boolean;
  onOpen(closure: Closure): void;
  onToggle(closure: Closure, activate: boolean): void;
}

export function ClosureRow({
  index,
  style,
  ariaAttributes,
  closures,
  toggling,
  canToggle,
  onOpen,
  onToggle,
}: ClosureRowProps & {
  index: number;
  style: CSSProperties;
  ariaAttributes: { 'aria-posinset': number; 'aria-setsize': number; role: 'listitem' };
}) {
  const closure = closures[index];
  if (!closure) return null;
  const pending = closure.id in toggling;
  const active = pending ? toggling[closure.id]! : closure.isActive;
  const outOfService = closureConnection(closure) === 'out-of-service';
  const badge = hasWzdxBadge(closure);
  return (
    <div style={style} {...ariaAttributes} className="closure-row-slot">
      <div className="closure-row" data-closure-id={closure.id} data-status={closure.status}>
        <button type="button" className="closure-row-open" onClick={() => onOpen(closure)}>
          <ClosureStatusIcon status={closure.status} />
          <span className="closure-row-text">
            <span className="closure-row-description">{closure.description}</span>
            {closure.secondaryDisplayName && <span className="closure-row-secondary">{closure.secondaryDisplayName}</span>}
            {(badge || outOfService) && (
              <span className="closure-row-tags">
                {badge && <span className="closure-badge">{CLOSURE_TEXT.wzdx}</span>}
                {outOfService && <span className="closure-tag-oos">{CLOSURE_TEXT.outOfService}</span>}
              </span>
            )}
          </span>
        </button>
        {hasQuickToggle(closure) && canToggle(closure) && (
          <button
            type="button"
            role="switch"
            aria-checked={active}
            aria-label={`${active ? CLOSURE_TEXT.deactivate : CLOSURE_TEXT.activate}: ${closure.description}`}
            className="closure-toggle"
            disabled={pending}
            onClick={() => onToggle(closure, !active)}
          >
            <span className="closure-toggle-track" aria-hidden="true">
              <span className="closure-toggle-thumb" />
            </span>
            <span className="closure-toggle-label">{active ? CLOSURE_TEXT.deactivate : CLOSURE_TEXT.activate}</span>
          </button>
        )}
      </div>
    </div>
  );
}
