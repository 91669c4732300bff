/** Issue 7 (stub until written). */
export function ThingEdit() {
  return null;
}
