/**
 * How a pinned popup closes (part 1 §2 Map "Hover and pin popups exist" says no more, our
 * reading in docs/decisions/spec.md "Values the spec does not give"): its Close button, a click on the map where nothing pickable lies, or
 * Escape. Neither moves the target: the popup goes, the targeted item stays ringed.
 *
 * A click that lands on a pickable marker never gets here on the map: its layer's onClick answers
 * true and deck.gl stops the click there (Deck's own onClick only sees the unhandled ones).
 */
import type { MapState } from './map-state';

/** MouseEvent.button of the secondary (usually right) button. */
const SECONDARY_BUTTON = 2;

/**
 * Whether a click came from the secondary button (the right-click menu's, not a click): deck.gl's
 * own gesture events say `rightButton`; Google's overlay forwards a map `rightclick` as a click
 * with Google's MapMouseEvent (its DOM event inside) as `srcEvent`.
 */
export function isSecondaryClick(event: unknown): boolean {
  if (!event || typeof event !== 'object') return false;
  const gesture = event as { rightButton?: unknown; srcEvent?: unknown };
  if (gesture.rightButton === true) return true;
  const source = gesture.srcEvent as { button?: unknown; domEvent?: { button?: unknown } | null } | null | undefined;
  return source?.button === SECONDARY_BUTTON || source?.domEvent?.button === SECONDARY_BUTTON;
}

/** A primary click that hit no pickable object (deck.gl: `picked` false, no layer). */
export function isEmptyMapClick(info: { picked?: boolean; layer?: unknown }, event: unknown): boolean {
  return !info.picked && info.layer == null && !isSecondaryClick(event);
}

/** The map's click handler: an empty-map click closes the pinned popup. Returns whether it closed one. */
export function dismissPopupOnMapClick(map: MapState, info: { picked?: boolean; layer?: unknown }, event: unknown): boolean {
  if (!map.popup || !isEmptyMapClick(info, event)) return false;
  map.popup = null;
  return true;
}

function isEditable(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const element = target as HTMLElement;
  return element.isContentEditable || element.closest('input, textarea, select, [contenteditable="true"]') !== null;
}

/**
 * Escape closes the pinned popup, unless something else has it: a handler that took it
 * (`defaultPrevented`: an open select), a text field, or a modal dialog (Escape closes the modal).
 * Returns whether it closed one.
 */
export function dismissPopupOnKey(map: MapState, event: Pick<KeyboardEvent, 'key' | 'defaultPrevented' | 'target'>): boolean {
  if (event.key !== 'Escape' || event.defaultPrevented || !map.popup) return false;
  if (isEditable(event.target)) return false;
  const target = event.target as Element | null;
  if (target && typeof target.closest === 'function' && target.closest('[aria-modal="true"]')) return false;
  map.popup = null;
  return true;
}
