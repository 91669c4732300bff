/**
 * The page's one polite live region (docs/accessibility.md "Announcements"): a screen reader hears
 * new incidents as they appear ('New incident: Crash on Lamar', or '3 new incidents' when several
 * came in one read), never asset updates. It reads the events the map and the events panel show
 * (the events query of the map, at most once a second); the events held when the list first loads are not new.
 */
import { useEffect, useRef, useState } from 'react';
import { SHELL_EXTRA_TEXT } from '../../domain/labels';
import { useLive } from '../live/hooks';
import { useEventsRead } from '../map/use-overlay-data';

export function IncidentAnnouncer() {
  const { store } = useLive();
  const events = useEventsRead(true);
  const seen = useRef<Set<string> | null>(null);
  const [message, setMessage] = useState('');
  useEffect(() => {
    if (events === null) return;
    const active = events.filter((event) => event.isActive);
    // The first answer once the events loaded is what was there already.
    if (seen.current === null) {
      if (store.events.version > 0) seen.current = new Set(active.map((event) => event.id));
      return;
    }
    const fresh = active.filter((event) => !seen.current!.has(event.id));
    for (const event of fresh) seen.current.add(event.id);
    if (fresh.length === 1) setMessage(SHELL_EXTRA_TEXT.newIncident(fresh[0]!.displayName));
    else if (fresh.length > 1) setMessage(SHELL_EXTRA_TEXT.newIncidents(fresh.length));
  }, [events, store]);
  return (
    <div className="visually-hidden" role="status" aria-live="polite" data-testid="announcer">
      {message}
    </div>
  );
}
