/**
 * The map's side of a drawing: a session per request, its layer re-made on each change, and the
 * session's keys (Escape cancels, Enter finishes) heard on the whole page — except while a form
 * field has them (Enter there belongs to the form).
 */
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { Layer } from '@deck.gl/core';
import { drawLayer } from './draw-layer';
import { DrawSession, type DrawingRequest } from './draw-session';

function typingInField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** The drawing layer for a request (null: none). */
export function useDrawLayer(request: DrawingRequest | null): Layer | null {
  const session = useMemo(() => (request ? new DrawSession(request) : null), [request]);
  const version = useSyncExternalStore(
    (listener) => session?.subscribe(listener) ?? (() => undefined),
    () => session?.version ?? 0,
  );
  useEffect(() => {
    if (!session) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (typingInField(event.target)) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        session.cancel();
      } else if (event.key === 'Enter') {
        event.preventDefault();
        session.finish();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [session]);
  // A new layer per change of the session (its version): the editable layer re-reads data and mode.
  return useMemo(() => (session ? drawLayer(session) : null), [session, version]);
}
