/**
 * A confirmation before a destructive write (part 2 §2 "delete needs confirmation"): the question,
 * the confirm and cancel buttons, and the failure of the write inside the dialog (part 2: "delete
 * errors show in the confirm dialog").
 */
import type { UserError } from '../../domain/errors';
import { SECTION_TEXT } from '../../domain/labels';
import { Modal } from '../ui/modal';
import { SubmitFailure } from './item-state';

export interface ConfirmDialogProps {
  title: string;
  body?: string;
  confirmLabel: string;
  pending: boolean;
  failure: UserError | null;
  onConfirm(): void;
  onCancel(): void;
}

export function ConfirmDialog({ title, body, confirmLabel, pending, failure, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <Modal
      role="alertdialog"
      title={title}
      onClose={pending ? undefined : onCancel}
      actions={
        <>
          <button type="button" className="button button-secondary" disabled={pending} onClick={onCancel}>
            {SECTION_TEXT.cancel}
          </button>
          <button type="button" className="button button-danger" disabled={pending} onClick={onConfirm}>
            {pending ? SECTION_TEXT.deleting : confirmLabel}
          </button>
        </>
      }
    >
      {body && <p>{body}</p>}
      <SubmitFailure failure={failure} />
    </Modal>
  );
}
