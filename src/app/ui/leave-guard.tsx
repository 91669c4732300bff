/**
 * Changes not saved are not lost without asking (chosen for every form of both parts; part 1 §5
 * and part 2 §5 keep Save disabled until a form changed, so a changed form is what there is to
 * lose). While a form's guard holds, leaving the page for another path — a link, the browser's or
 * the header's Back, the navigation, Cancel — asks 'Leave without saving?' (Stay or Leave), and a
 * reload or a closed tab gets the browser's own question.
 *
 * A write that passed (`useSubmit`, the one way a page sends one) lets the page go: the save goes
 * on to its detail with the form still changed. The release lasts until the page changes or the
 * form is edited again; a save refused by the form's own rules sends nothing and releases nothing.
 *
 * A router holds one blocker at a time, and a page can hold two forms (an asset's profile and its
 * relations): every form's `LeaveGuard` registers with the one `LeaveGuardHost` of the app frame,
 * which blocks when any of them holds.
 */
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useBlocker, useLocation } from 'react-router-dom';
import { SECTION_TEXT } from '../../domain/labels';
import { Modal } from './modal';

type Armed = () => boolean;

interface LeaveGuards {
  guards: Set<Armed>;
  /** A write passed: the page may go until it changes or a form is edited. */
  release(): void;
  /** A form was edited: its guard holds again. */
  hold(): void;
  released(): boolean;
}

const Guards = createContext<LeaveGuards | null>(null);

/** The app frame's one blocker and its question; without it a guard still asks before a reload. */
export function LeaveGuardHost({ children }: { children: ReactNode }) {
  const released = useRef(false);
  const [value] = useState<LeaveGuards>(() => ({
    guards: new Set<Armed>(),
    release: () => (released.current = true),
    hold: () => (released.current = false),
    released: () => released.current,
  }));
  const { pathname } = useLocation();
  useEffect(() => {
    released.current = false;
  }, [pathname]);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      currentLocation.pathname !== nextLocation.pathname && !released.current && [...value.guards].some((armed) => armed()),
  );
  return (
    <Guards.Provider value={value}>
      {children}
      {blocker.state === 'blocked' && (
        <Modal
          role="alertdialog"
          title={SECTION_TEXT.leaveTitle}
          onClose={() => blocker.reset()}
          actions={
            <>
              <button type="button" className="button button-secondary" onClick={() => blocker.reset()}>
                {SECTION_TEXT.stay}
              </button>
              <button type="button" className="button button-danger" onClick={() => blocker.proceed()}>
                {SECTION_TEXT.leave}
              </button>
            </>
          }
        >
          <p>{SECTION_TEXT.leaveBody}</p>
        </Modal>
      )}
    </Guards.Provider>
  );
}

/** What `useSubmit` calls when a write passed (nothing outside the app frame). */
export function useLeaveRelease(): () => void {
  const guards = useContext(Guards);
  return guards ? guards.release : noop;
}

function noop(): void {}

/** Guards the page while `when` holds (the form changed and is not sending); rendered inside the form (SaveButton does). */
export function LeaveGuard({ when }: { when: boolean }) {
  const host = useContext(Guards);
  const anchor = useRef<HTMLSpanElement>(null);
  const wanted = useRef(when);
  wanted.current = when;
  const [armed] = useState(() => () => wanted.current);

  useEffect(() => {
    if (!host) return undefined;
    host.guards.add(armed);
    return () => {
      host.guards.delete(armed);
    };
  }, [host, armed]);

  useEffect(() => {
    const form = anchor.current?.closest('form');
    if (!form || !host) return undefined;
    const onEdit = () => host.hold();
    form.addEventListener('input', onEdit);
    form.addEventListener('change', onEdit);
    return () => {
      form.removeEventListener('input', onEdit);
      form.removeEventListener('change', onEdit);
    };
  }, [host]);

  useEffect(() => {
    if (!when) return undefined;
    const onUnload = (event: BeforeUnloadEvent) => {
      if (!armed() || host?.released()) return;
      event.preventDefault();
      // Chromium before 119 asks only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [when, armed, host]);

  return <span ref={anchor} hidden />;
}
