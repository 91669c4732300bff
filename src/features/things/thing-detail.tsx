/** Issue 7 (stub until written). */
export function ThingDetail() {
  return null;
}
