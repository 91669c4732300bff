/** Issue 7 (stub until written). */
export function EventsPanel() {
  return null;
}
