/** Copies a text to the clipboard and says 'Copied' for a moment (part 1 §2 "lat/lon with copy", §9 copy feedback). */
import { useEffect, useState } from 'react';
import { COPY_FEEDBACK_MARKER_MS } from '../../domain/constants';
import { MAP_CONTROL_TEXT } from '../../domain/labels';

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return undefined;
    const timer = setTimeout(() => setCopied(false), COPY_FEEDBACK_MARKER_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = () => {
    void navigator.clipboard?.writeText(text).then(
      () => setCopied(true),
      () => undefined,
    );
  };
  return (
    <>
      <button type="button" className="button button-secondary button-small" onClick={copy} aria-label={label}>
        {copied ? MAP_CONTROL_TEXT.copied : MAP_CONTROL_TEXT.copy}
      </button>
      <span className="visually-hidden" role="status">
        {copied ? MAP_CONTROL_TEXT.copied : ''}
      </span>
    </>
  );
}
