import { DIALOG_TEXT, ERROR_ALERT } from '../../domain/labels';
import { Modal } from './modal';

/** part 1 §8: the generic error alert, 'Error' / 'Click OK to try again'; OK runs the retry. */
export function ErrorAlert({ onOk }: { onOk: () => void }) {
  return (
    <Modal
      role="alertdialog"
      title={ERROR_ALERT.title}
      actions={
        <button type="button" className="button button-primary" onClick={onOk}>
          {DIALOG_TEXT.ok}
        </button>
      }
    >
      <p>{ERROR_ALERT.body}</p>
    </Modal>
  );
}
