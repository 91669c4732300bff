/** Course (degrees) → one of 8 compass points (part 1 §3, part 2 §9: "course/45 rounded modulo 8"). */
import { COMPASS_POINTS, type CompassPoint } from './constants';

/** The angle between two neighbouring compass points. */
const DEGREES_PER_POINT = 360 / COMPASS_POINTS.length;

/**
 * COMPASS_POINTS[round(course / 45) mod 8], with a true (never negative) modulo so -45 is NW and
 * 360 is N. Halves round up (Math.round): 22.5 → NE, 337.5 → N. null for a missing or non-finite course.
 */
export function courseToCompass(course: number | null | undefined): CompassPoint | null {
  if (course === null || course === undefined || !Number.isFinite(course)) return null;
  const count = COMPASS_POINTS.length;
  const index = ((Math.round(course / DEGREES_PER_POINT) % count) + count) % count;
  return COMPASS_POINTS[index] ?? null;
}
