/**
 * An accounts tab's frame (part 2 §2 accounts tabs): the panel's heading with its main action
 * beside it, then the content; and the button of an action the caller may not take, shown disabled
 * with 'Not authorized' (part 2 §6) — the server refuses the same call; and a dialog form's foot:
 * the failed write's text, Cancel and Save (part 2 §5 "Save is disabled unless the form changed
 * or while submitting").
 */
import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { SubmitFailure } from '../../app/section/item-state';
import type { Submit } from '../../app/section/use-submit';
import { SaveButton } from '../../app/ui/save-button';
import { SECTION_TEXT, TOOLTIP } from '../../domain/labels';

export interface AccountsPanelProps {
  /** Names the heading: `accounts-${id}-title`. */
  id: string;
  title: string;
  /** Beside the heading (Add, Create). */
  action?: ReactNode;
  children: ReactNode;
}

export function AccountsPanel({ id, title, action, children }: AccountsPanelProps) {
  const titleId = `accounts-${id}-title`;
  const heading = (
    <h2 id={titleId} className="accounts-heading">
      {title}
    </h2>
  );
  return (
    <section className="accounts-panel" aria-labelledby={titleId}>
      {action ? (
        <div className="accounts-panel-head">
          {heading}
          {action}
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  );
}

export interface AllowedButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'disabled' | 'title'> {
  /** false: disabled, with the 'Not authorized' tooltip. */
  allowed: boolean;
  /** Disabled for another reason (nothing selected), without the tooltip. */
  disabled?: boolean;
}

export function AllowedButton({ allowed, disabled = false, className = 'button button-secondary', ...button }: AllowedButtonProps) {
  return (
    <button
      {...button}
      type="button"
      className={className}
      disabled={!allowed || disabled}
      title={allowed ? undefined : TOOLTIP.notAuthorized}
    />
  );
}

export interface FormFooterProps {
  /** The form's write: its failure shows, and Cancel and Save wait while it is pending. */
  write: Pick<Submit<unknown>, 'pending' | 'failure' | 'succeeded'>;
  dirty: boolean;
  /** A form that closes (a dialog, a list's editor) has Cancel; one saved in place (the profile) has none. */
  onCancel?: () => void;
  /** Save's label; 'Save' when none. */
  saveLabel?: string;
  /** A form saved in place: this notice after a save, until the next change. */
  savedText?: string;
}

export function FormFooter({ write, dirty, onCancel, saveLabel, savedText }: FormFooterProps) {
  return (
    <>
      <SubmitFailure failure={write.failure} />
      {savedText && write.succeeded && !dirty && (
        <p className="form-alert form-alert-success" role="status">
          {savedText}
        </p>
      )}
      <div className="accounts-actions">
        {onCancel && (
          <button type="button" className="button button-secondary" onClick={onCancel} disabled={write.pending}>
            {SECTION_TEXT.cancel}
          </button>
        )}
        <SaveButton dirty={dirty} submitting={write.pending}>
          {saveLabel}
        </SaveButton>
      </div>
    </>
  );
}
