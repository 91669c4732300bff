/** Issue 7 (stub until written). */
export function EventDetail() {
  return null;
}
