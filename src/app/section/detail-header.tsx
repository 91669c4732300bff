/**
 * The header of an item's detail and edit pages (part 1 §2, part 2 §2): Back (the page decides
 * what it clears), the title and a subtitle, then Edit (a link) and Delete, which asks first and
 * shows a failed delete in its dialog (part 2: "delete needs confirmation", "delete errors show in
 * the confirm dialog").
 */
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { QueryKey } from '@tanstack/react-query';
import type { ErrorContext } from '../../domain/errors';
import { SECTION_TEXT } from '../../domain/labels';
import { RefusedButton } from '../ui/refused-button';
import { ConfirmDialog } from './confirm-dialog';
import { useItemMemory } from './item-memory';
import { useSubmit } from './use-submit';
import './section.css';

export interface DeleteAction {
  /** The button's words ('Delete', part 2 'Delete Area'). */
  label: string;
  /** What the dialog names. */
  itemName: string;
  send(): Promise<unknown>;
  context: ErrorContext;
  invalidates?: readonly QueryKey[];
  /** After the delete passed: leave the page. */
  onDeleted(): void;
}

export interface DetailHeaderProps {
  title: string;
  subtitle?: string | null;
  /** The title's id (pages label their section with it). */
  titleId?: string;
  /** Drawn before the title (a status icon). */
  icon?: ReactNode;
  onBack(): void;
  /** Edit's target; none: no Edit (the item is not edited here, e.g. a feed's closure). */
  editHref?: string | null;
  editLabel?: string;
  /**
   * The user may not edit or delete this item: Edit and Delete show disabled with part 2 §6's
   * tooltip 'Not authorized' (the label of Delete given here).
   */
  refused?: { edit: boolean; deleteLabel?: string | null } | null;
  /** None: no Delete. */
  remove?: DeleteAction | null;
  /** More buttons after Edit and Delete. */
  children?: ReactNode;
  /** The section's own class beside `detail-header`. */
  className?: string;
}

export function BackButton({ onBack }: { onBack(): void }) {
  return (
    <button type="button" className="button button-secondary detail-back" onClick={onBack}>
      <span aria-hidden="true">‹</span> {SECTION_TEXT.back}
    </button>
  );
}

function DeleteButton({ action }: { action: DeleteAction }) {
  const [asking, setAsking] = useState(false);
  const memory = useItemMemory();
  const { pending, failure, submit, reset } = useSubmit({
    context: action.context,
    invalidates: action.invalidates,
    onSuccess: () => {
      // Deleted: its section's link no longer leads back to it.
      memory.forgetShownItem();
      action.onDeleted();
    },
  });
  const close = () => {
    setAsking(false);
    reset();
  };
  return (
    <>
      <button type="button" className="button button-danger detail-delete" onClick={() => setAsking(true)}>
        {action.label}
      </button>
      {asking && (
        <ConfirmDialog
          title={SECTION_TEXT.confirmDeleteTitle(action.itemName)}
          body={SECTION_TEXT.confirmDeleteBody}
          confirmLabel={action.label}
          pending={pending}
          failure={failure}
          onConfirm={() => void submit(action.send)}
          onCancel={close}
        />
      )}
    </>
  );
}

export function DetailHeader({
  title,
  subtitle,
  titleId = 'section-title',
  icon,
  onBack,
  editHref,
  editLabel = SECTION_TEXT.edit,
  remove,
  refused,
  children,
  className,
}: DetailHeaderProps) {
  return (
    <header className={className ? `detail-header ${className}` : 'detail-header'}>
      <BackButton onBack={onBack} />
      {icon}
      <div className="detail-title">
        <h1 id={titleId}>{title}</h1>
        {subtitle && <p className="detail-subtitle">{subtitle}</p>}
      </div>
      {editHref ? (
        <Link className="button button-primary detail-edit" to={editHref}>
          {editLabel}
        </Link>
      ) : (
        refused?.edit && <RefusedButton className="button button-primary detail-edit">{editLabel}</RefusedButton>
      )}
      {remove ? (
        <DeleteButton action={remove} />
      ) : (
        refused?.deleteLabel && <RefusedButton className="button button-danger detail-delete">{refused.deleteLabel}</RefusedButton>
      )}
      {children}
    </header>
  );
}
