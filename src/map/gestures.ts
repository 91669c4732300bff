/**
 * How the map's deck.gl canvases tell a click from a press (part 1 §2 map clicks, part 2 §5
 * drawing). deck.gl counts a tap only when the release is handled within 250 ms of the press, timed
 * when each event is handled, not when it happened: one long frame between the two (a large fleet
 * on a slow machine, software WebGL) stretched a quick click past the limit and the click was lost
 * — a drawing's vertex, a marker's popup. A press released without moving (deck.gl's 9 px) is a
 * click if it is released within a second, as a browser's own click is.
 */
import type { DeckProps } from '@deck.gl/core';

/** The longest press, in ms, that still counts as a click. */
export const CLICK_MAX_PRESS_MS = 1_000;

export const MAP_GESTURES: NonNullable<DeckProps['eventRecognizerOptions']> = {
  click: { time: CLICK_MAX_PRESS_MS },
};
