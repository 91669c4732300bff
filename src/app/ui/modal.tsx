import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface ModalProps {
  title: string;
  children?: ReactNode;
  /** The buttons row. */
  actions: ReactNode;
  /** Escape closes when given. */
  onClose?: () => void;
  role?: 'dialog' | 'alertdialog';
}

/** What can take focus inside a dialog (disabled controls and `tabindex="-1"` left out). */
const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusableIn(node: HTMLElement): HTMLElement[] {
  return [...node.querySelectorAll<HTMLElement>(FOCUSABLE)];
}

/**
 * A modal dialog (WAI-ARIA dialog pattern; docs/accessibility.md): the native `<dialog>` opened
 * with `showModal()`, so the page behind is inert and the dialog sits above everything, labelled by
 * its title. On open, focus moves to its first control; Tab and Shift+Tab cycle within it; Escape
 * closes it where `onClose` is given (and does nothing otherwise: the browser's own cancel is held
 * back, the caller's state decides); on close, focus returns to the control that had it when it
 * opened. Where `showModal` does not exist (jsdom) the dialog is simply open.
 */
export function Modal({ title, children, actions, onClose, role = 'dialog' }: ModalProps) {
  const titleId = useId();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const node = ref.current;
    if (!node) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (typeof node.showModal === 'function') {
      if (!node.open) node.showModal();
    } else node.setAttribute('open', '');
    focusableIn(node)[0]?.focus();
    // The browser's Escape (its cancel event) would close the dialog behind React's back.
    const cancel = (event: Event) => event.preventDefault();
    node.addEventListener('cancel', cancel);
    return () => {
      node.removeEventListener('cancel', cancel);
      if (typeof node.close === 'function' && node.open) node.close();
      // Back to the control that opened it, when it is still on the page.
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose?.();
      return;
    }
    if (event.key !== 'Tab') return;
    const controls = focusableIn(event.currentTarget);
    if (controls.length === 0) {
      event.preventDefault();
      return;
    }
    const first = controls[0]!;
    const last = controls.at(-1)!;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !event.currentTarget.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !event.currentTarget.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  };
  return (
    <dialog
      ref={ref}
      className="modal"
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-modal="true"
      aria-labelledby={titleId}
      onKeyDown={onKeyDown}
    >
      <h2 id={titleId} className="modal-title">
        {title}
      </h2>
      {children && <div className="modal-body">{children}</div>}
      <div className="modal-actions">{actions}</div>
    </dialog>
  );
}
