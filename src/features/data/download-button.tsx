/**
 * A download control (part 2 §2 "each with a download link"): every click asks for a fresh signed
 * link (download.ts re-asks once for a refused one); a file that is gone shows 'File not found'
 * (part 2 §8 report file) next to the button.
 */
import { useState } from 'react';
import { userErrorOf } from '../../app/api-client';
import { errorText } from '../../domain/errors';
import { DATA_TEXT } from '../../domain/labels';
import { DownloadError, downloadSigned } from './download';

export function DownloadButton({ label, link, text = DATA_TEXT.download }: { label: string; link: () => Promise<string>; text?: string }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const click = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await downloadSigned(link);
    } catch (error) {
      const shown = error instanceof DownloadError ? errorText('reportFile', { status: error.status }) : userErrorOf(error, 'reportFile');
      setFailure(shown.text);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="data-download">
      <button type="button" className="button button-secondary" aria-label={label} disabled={busy} onClick={() => void click()}>
        {text}
      </button>
      {failure && (
        <span className="field-error" role="alert">
          {failure}
        </span>
      )}
    </span>
  );
}
