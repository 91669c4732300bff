/** Issue 7 (stub until written). */
export function ThingsList() {
  return null;
}
