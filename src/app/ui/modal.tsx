import { useEffect, useId, useRef, type ReactNode } from 'react';

export interface ModalProps {
  title: string;
  children?: ReactNode;
  /** The buttons row. */
  actions: ReactNode;
  /** Escape closes when given. */
  onClose?: () => void;
  role?: 'dialog' | 'alertdialog';
}

/** A modal dialog: labelled by its title, focus moved inside on open, Escape closes where allowed. */
export function Modal({ title, children, actions, onClose, role = 'dialog' }: ModalProps) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = ref.current;
    const first = node?.querySelector<HTMLElement>('button, [href], input, select, textarea');
    first?.focus();
  }, []);
  return (
    <div className="modal-backdrop">
      <div
        ref={ref}
        className="modal"
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && onClose) onClose();
        }}
      >
        <h2 id={titleId} className="modal-title">
          {title}
        </h2>
        {children && <div className="modal-body">{children}</div>}
        <div className="modal-actions">{actions}</div>
      </div>
    </div>
  );
}
