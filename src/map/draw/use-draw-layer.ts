/**
 * The map's side of a drawing: a session per request, its layer re-made on each change, and the
 * session's keys (Escape cancels, Enter finishes) heard on the whole page — except while a form
 * field has them (Enter there belongs to the form). The drawing code is loaded on the first
 * request (draw-runtime.ts).
 */
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { Layer } from '@deck.gl/core';
import type { DrawingRequest } from './draw-session';

type DrawRuntime = typeof import('./draw-runtime');

let runtime: Promise<DrawRuntime> | null = null;

/** Loads the drawing code (once); the hook calls it on the first request. */
export function loadDrawRuntime(): Promise<DrawRuntime> {
  runtime ??= import('./draw-runtime');
  return runtime;
}

function typingInField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * The drawing layer for a request (null: none, or while the drawing code loads), and how many
 * edits the drawing has taken (each click, close or vertex move): the map writes it on its
 * element (`data-drawing-edits`), so a test waits for a click to land instead of a fixed time.
 */
export function useDrawLayer(request: DrawingRequest | null): { layer: Layer | null; edits: number } {
  const [loaded, setLoaded] = useState<DrawRuntime | null>(null);
  const wanted = request !== null;
  useEffect(() => {
    if (!wanted || loaded) return undefined;
    let live = true;
    void loadDrawRuntime().then((module) => {
      if (live) setLoaded(module);
    });
    return () => {
      live = false;
    };
  }, [wanted, loaded]);
  const session = useMemo(() => (request && loaded ? new loaded.DrawSession(request) : null), [request, loaded]);
  const version = useSyncExternalStore(
    (listener) => session?.subscribe(listener) ?? (() => undefined),
    () => session?.version ?? 0,
  );
  useEffect(() => {
    if (!session || !request) return undefined;
    // The form's Finish (a phone has no Enter key) ends the drawing as Enter does.
    request.finish = () => session.finish();
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
    return () => {
      document.removeEventListener('keydown', onKey);
      delete request.finish;
    };
  }, [session, request]);
  // A new layer per change of the session (its version): the editable layer re-reads data and mode.
  const layer = useMemo(() => (session && loaded ? loaded.drawLayer(session) : null), [session, loaded, version]);
  return { layer, edits: version };
}
