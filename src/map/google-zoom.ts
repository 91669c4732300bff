/**
 * Google Maps' zoom and deck.gl's zoom are one apart: Google's web-mercator
 * world is 256 px wide at zoom 0, deck.gl's MapView 512 px, so the same scale is deck zoom z and
 * Google zoom z + 1 (@deck.gl/google-maps reads `map.getZoom() - 1` for its overlay's view). The map
 * state and every zoom of the app are deck.gl's, as the standalone map draws them; the Google
 * provider converts at its edge, here only.
 */
export const GOOGLE_ZOOM_OFFSET = 1;

/** Google's zoom for a deck.gl zoom (a camera request, the initial view). */
export function googleZoomFromDeck(deckZoom: number): number {
  return deckZoom + GOOGLE_ZOOM_OFFSET;
}

/** deck.gl's zoom for Google's (the view Google reports). */
export function deckZoomFromGoogle(googleZoom: number): number {
  return googleZoom - GOOGLE_ZOOM_OFFSET;
}
