// @vitest-environment jsdom
/**
 * The modal dialog (src/app/ui/modal.tsx; docs/accessibility.md "Dialogs"): labelled by its title,
 * focus moved to its first control on open, Tab and Shift+Tab kept inside, Escape closing only where
 * the caller allows it, and focus back on the control that opened it once it closes.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Modal } from '../../../src/app/ui/modal';

afterEach(cleanup);

function Opener({ onClose = true }: { onClose?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <main>
      <button type="button">Before</button>
      <button type="button" onClick={() => setOpen(true)}>
        Delete area
      </button>
      {open && (
        <Modal
          title="Delete Park?"
          role="alertdialog"
          onClose={onClose ? () => setOpen(false) : undefined}
          actions={
            <>
              <button type="button" onClick={() => setOpen(false)}>
                Cancel
              </button>
              <button type="button" onClick={() => setOpen(false)}>
                Delete
              </button>
            </>
          }
        >
          <p>
            This cannot be undone. <a href="/help">Why?</a>
          </p>
        </Modal>
      )}
    </main>
  );
}

function open(): HTMLElement {
  const opener = screen.getByRole('button', { name: 'Delete area' });
  opener.focus();
  fireEvent.click(opener);
  return screen.getByRole('alertdialog', { name: 'Delete Park?' });
}

describe('the modal dialog', () => {
  it('is a native dialog labelled by its title, open, with focus on its first control', () => {
    render(<Opener />);
    const dialog = open();
    expect(dialog.tagName).toBe('DIALOG');
    expect(dialog.hasAttribute('open')).toBe(true);
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Why?' }));
  });

  it('keeps Tab and Shift+Tab inside: from the last control to the first, and back', () => {
    render(<Opener />);
    const dialog = open();
    const first = screen.getByRole('link', { name: 'Why?' });
    const last = screen.getByRole('button', { name: 'Delete' });
    last.focus();
    expect(fireEvent.keyDown(last, { key: 'Tab' })).toBe(false);
    expect(document.activeElement).toBe(first);
    expect(fireEvent.keyDown(first, { key: 'Tab', shiftKey: true })).toBe(false);
    expect(document.activeElement).toBe(last);
    // In between, the browser moves focus as usual (the key is not taken).
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    cancel.focus();
    expect(fireEvent.keyDown(cancel, { key: 'Tab' })).toBe(true);
    // Focus somehow outside (the page behind is inert in a browser): Tab brings it back in.
    screen.getByRole('button', { name: 'Before' }).focus();
    fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(first);
  });

  it('Escape closes it and focus returns to the control that opened it', () => {
    render(<Opener />);
    const dialog = open();
    fireEvent.keyDown(screen.getByRole('button', { name: 'Cancel' }), { key: 'Escape' });
    expect(dialog.isConnected).toBe(false);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete area' }));
  });

  it('a button that closes it returns focus too', () => {
    render(<Opener />);
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete area' }));
  });

  it('without onClose, Escape leaves it open', () => {
    render(<Opener onClose={false} />);
    const dialog = open();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.getByRole('alertdialog', { name: 'Delete Park?' })).toBe(dialog);
  });

  it("uses the browser's modal dialog where there is one, and holds back its own Escape (cancel)", () => {
    const showModal = vi.fn(function (this: HTMLDialogElement) {
      this.setAttribute('open', '');
    });
    const close = vi.fn(function (this: HTMLDialogElement) {
      this.removeAttribute('open');
    });
    Object.defineProperty(HTMLDialogElement.prototype, 'showModal', { value: showModal, configurable: true });
    Object.defineProperty(HTMLDialogElement.prototype, 'open', {
      get(this: HTMLDialogElement) {
        return this.hasAttribute('open');
      },
      configurable: true,
    });
    Object.defineProperty(HTMLDialogElement.prototype, 'close', { value: close, configurable: true });
    try {
      render(<Opener />);
      const dialog = open();
      expect(showModal).toHaveBeenCalledTimes(1);
      const cancel = new Event('cancel', { cancelable: true });
      dialog.dispatchEvent(cancel);
      expect(cancel.defaultPrevented).toBe(true);
      fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
      expect(close).toHaveBeenCalledTimes(1);
    } finally {
      delete (HTMLDialogElement.prototype as unknown as Record<string, unknown>).showModal;
      delete (HTMLDialogElement.prototype as unknown as Record<string, unknown>).close;
      delete (HTMLDialogElement.prototype as unknown as Record<string, unknown>).open;
    }
  });
});
