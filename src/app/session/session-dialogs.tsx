/** The session's dialogs (part 1 §4, §8): notices after a sign-out and the inactivity warning. */
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { DIALOG_TEXT, SESSION_TEXT } from '../../domain/labels';
import { useServices } from '../services';
import { Modal } from '../ui/modal';

/** Mouse, keys, touch and wheel count as activity (part 1 §4 inactivity). */
const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart'] as const;

export function SessionDialogs() {
  const { session } = useServices();
  const snap = useSnapshot(session.state);

  useEffect(() => {
    if (snap.status !== 'signedIn') return undefined;
    const onActivity = () => session.recordActivity();
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { passive: true });
    return () => {
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity);
    };
  }, [session, snap.status]);

  if (snap.inactivity.prompting) {
    return (
      <Modal
        role="alertdialog"
        title={SESSION_TEXT.inactivityWarning}
        actions={
          <button className="button button-primary" type="button" onClick={() => session.staySignedIn()}>
            {SESSION_TEXT.staySignedIn}
          </button>
        }
      >
        <p>
          You will be signed out in <strong data-testid="inactivity-seconds">{snap.inactivity.secondsLeft}</strong>{' '}
          {snap.inactivity.secondsLeft === 1 ? 'second' : 'seconds'}.
        </p>
      </Modal>
    );
  }
  if (snap.notice) {
    return (
      <Modal
        role="alertdialog"
        title={snap.notice.title}
        onClose={() => session.dismissNotice()}
        actions={
          <button className="button button-primary" type="button" onClick={() => session.dismissNotice()}>
            {DIALOG_TEXT.ok}
          </button>
        }
      >
        {snap.notice.body && <p>{snap.notice.body}</p>}
      </Modal>
    );
  }
  return null;
}
