/**
 * Colours and sizes of the closures on the map (part 2 §2), apart from the deck.gl layers so the
 * end-to-end pixel checks read the same values. The status colours are the asset status colours
 * of the same words (app.css --status-N); the sizes are ours.
 */
import type { ClosureStatus } from '../../domain/closure';
import { TARGET_COLOR, type Rgba } from './overlay-style';

/** Every colour and size of the closures layers, in one table (tests and pixel checks read it). */
export const CLOSURE_STYLE = {
  status: {
    active: [245, 124, 0, 255],
    standby: [46, 125, 50, 255],
    pending: [142, 36, 170, 255],
    offline: [117, 117, 117, 255],
  } satisfies Record<ClosureStatus, Rgba>,
  start: [46, 125, 50, 255] as Rgba,
  end: [183, 28, 28, 255] as Rgba,
  markerOutline: [255, 255, 255, 255] as Rgba,
  arrow: [255, 255, 255, 255] as Rgba,
  target: TARGET_COLOR,
  linePx: 6,
  targetLinePx: 10,
  markerPx: 7,
  markerOutlinePx: 2,
  arrowPx: 12,
  /** One arrow per this many path points at most, at least one per segment of a short path. */
  arrowEvery: 3,
} as const;
