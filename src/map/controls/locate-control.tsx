/**
 * part 1 §2 find-my-location, §4 "Geolocation: request, then success, error or clear", §8 texts.
 * The button asks; the caller runs the browser's geolocation and reports the state back.
 */
import { MAP_CONTROL_TEXT } from '../../domain/labels';

export type LocateState = { kind: 'idle' } | { kind: 'requesting' } | { kind: 'found' } | { kind: 'error'; message: string };

export interface LocateControlProps {
  state: LocateState;
  onLocate: () => void;
  onClear: () => void;
}

export function LocateButton({ state, onLocate }: Pick<LocateControlProps, 'state' | 'onLocate'>) {
  const busy = state.kind === 'requesting';
  return (
    <button
      type="button"
      className={state.kind === 'found' ? 'map-button map-button-on' : 'map-button'}
      aria-label={MAP_CONTROL_TEXT.findMyLocation}
      title={MAP_CONTROL_TEXT.findMyLocation}
      aria-busy={busy}
      disabled={busy}
      onClick={onLocate}
    >
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
        <circle cx="12" cy="12" r="4" fill="currentColor" />
        <circle cx="12" cy="12" r="8" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="M12 1v4M12 19v4M1 12h4M19 12h4" stroke="currentColor" strokeWidth="2" />
      </svg>
    </button>
  );
}

/** What the request came to: pending, an error text, or the clear action after a success. */
export function LocateStatus({ state, onClear }: Pick<LocateControlProps, 'state' | 'onClear'>) {
  if (state.kind === 'idle') return null;
  if (state.kind === 'requesting') {
    return (
      <p className="map-toast" role="status">
        {MAP_CONTROL_TEXT.locating}
      </p>
    );
  }
  return (
    <div className={state.kind === 'error' ? 'map-toast map-toast-error' : 'map-toast'} role={state.kind === 'error' ? 'alert' : 'status'}>
      {state.kind === 'error' && <span>{state.message}</span>}
      <button type="button" className="map-link-button" onClick={onClear}>
        {state.kind === 'error' ? MAP_CONTROL_TEXT.close : MAP_CONTROL_TEXT.clearLocation}
      </button>
    </div>
  );
}
