/** The map's query bounds. */
/** The bounds grown by `margin` of their size on every side (queries cover a little more than the screen). */
export function padBounds(
  [west, south, east, north]: readonly [number, number, number, number],
  margin: number,
): [number, number, number, number] {
  const dx = (east - west) * margin;
  const dy = (north - south) * margin;
  return [west - dx, Math.max(-85.0511, south - dy), east + dx, Math.min(85.0511, north + dy)];
}
