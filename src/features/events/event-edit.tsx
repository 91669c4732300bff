/** Issue 7 (stub until written). */
export function EventEdit() {
  return null;
}
