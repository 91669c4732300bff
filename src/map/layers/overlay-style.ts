/**
 * Colours and sizes of the map's event and area markers, apart from the deck.gl layers
 * so tests and the end-to-end pixel checks read the same values. The pixels and the teal of the
 * areas are ours (the spec names none: docs/decisions/spec.md "Values the spec does not give"); the event red is the location status colour.
 */
import { STATUS_COLORS } from '../icon-atlas';

export type Rgba = [number, number, number, number];

/** A CSS colour of a layer's colour (the legends' swatches). */
export function cssColor([r, g, b]: Rgba): string {
  return `rgb(${r}, ${g}, ${b})`;
}

// ── events ──
/** An active event: the location status colour (part 1 §4 status 0; app.css --status-0). */
export const EVENT_ACTIVE_COLOR: Rgba = [...(STATUS_COLORS[0] ?? [211, 47, 47]), 255] as Rgba;
/** An ended event: muted grey, partly transparent. */
export const EVENT_ENDED_COLOR: Rgba = [144, 150, 160, 200];
export const EVENT_OUTLINE_COLOR: Rgba = [255, 255, 255, 255];
/** The targeted item's ring or outline (app.css --focus). */
export const TARGET_COLOR: Rgba = [255, 179, 0, 255];
export const EVENT_TARGET_COLOR: Rgba = TARGET_COLOR;
/** CSS pixels. */
export const EVENT_RADIUS_PX = 9;
export const EVENT_OUTLINE_PX = 2;
export const EVENT_TARGET_RADIUS_PX = 15;
export const EVENT_TARGET_LINE_PX = 4;

// ── areas ──
export const AREA_FILL_COLOR: Rgba = [0, 137, 123, 38];
export const AREA_LINE_COLOR: Rgba = [0, 121, 107, 200];
export const AREA_TARGET_LINE_COLOR: Rgba = TARGET_COLOR;
export const AREA_BADGE_COLOR: Rgba = [255, 255, 255, 255];
export const AREA_BADGE_BORDER_COLOR: Rgba = [0, 121, 107, 255];
export const AREA_BADGE_TEXT_COLOR: Rgba = [23, 32, 46, 255];
export const AREA_LINE_PX = 1.5;
export const AREA_TARGET_LINE_PX = 3;
export const AREA_BADGE_FONT_PX = 13;
export const AREA_BADGE_BORDER_PX = 2;
