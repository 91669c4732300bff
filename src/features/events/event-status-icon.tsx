/** An event's status icon (part 1 §2: rows and the detail show active or inactive). */
import { EVENTS_TEXT } from '../../domain/labels';

const ICON_SIZE = 18;

export function EventStatusIcon({ active }: { active: boolean }) {
  const label = active ? EVENTS_TEXT.active : EVENTS_TEXT.inactive;
  return (
    <svg
      className={active ? 'event-status-icon event-status-active' : 'event-status-icon event-status-inactive'}
      width={ICON_SIZE}
      height={ICON_SIZE}
      viewBox="0 0 18 18"
      role="img"
      aria-label={label}
    >
      <title>{label}</title>
      {/* A warning triangle: filled when active, outlined when over. */}
      <path d="M9 1.5 17 16H1Z" strokeWidth="1.5" strokeLinejoin="round" className="event-status-shape" />
      <path d="M9 6.5v4.5M9 12.8v.7" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" className="event-status-mark" />
    </svg>
  );
}
