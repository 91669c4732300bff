/** The events section's back button (part 1 §2: back clears the targeted item). */
import { useNavigate, useOutletContext } from 'react-router-dom';
import { EVENTS_TEXT } from '../../domain/labels';
import { setTarget } from '../../app/map/map-state';
import type { ShellContext } from '../../app/shell/dashboard-layout';

export const EVENTS_PATH = '/dashboard/events';

/** Back to the panel; the targeted event is cleared (part 1 §2). */
export function BackButton({ to = EVENTS_PATH, clearTarget = true }: { to?: string; clearTarget?: boolean }) {
  const { map } = useOutletContext<ShellContext>();
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className="button button-secondary events-back"
      onClick={() => {
        if (clearTarget) setTarget(map, null);
        navigate(to);
      }}
    >
      <span aria-hidden="true">←</span> {EVENTS_TEXT.back}
    </button>
  );
}


/** The page of an event that is still loading or not kept (detail and edit): Back and the state. */
export function EventPending({ className, loading }: { className: string; loading: boolean }) {
  return (
    <section className={className} aria-busy={loading}>
      <BackButton />
      <p className="event-muted" role="status">
        {loading ? EVENTS_TEXT.loading : EVENTS_TEXT.notFound}
      </p>
    </section>
  );
}
