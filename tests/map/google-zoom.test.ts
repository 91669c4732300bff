/**
 * Google Maps' zoom against deck.gl's: Google's world is 256 px wide at zoom 0,
 * deck.gl's MapView 512 px, so one scale is deck zoom z and Google zoom z + 1 (as
 * @deck.gl/google-maps reads `map.getZoom() - 1`).
 */
import { WebMercatorViewport } from '@deck.gl/core';
import { describe, expect, it } from 'vitest';
import { deckZoomFromGoogle, googleZoomFromDeck, GOOGLE_ZOOM_OFFSET } from '../../src/map/google-zoom';

/** Google's tile size in pixels (the Maps JavaScript API's world at zoom 0). */
const GOOGLE_TILE_PX = 256;

describe('Google zoom = deck.gl zoom + 1', () => {
  it.each([
    [0, 1],
    [10, 11],
    [12.5, 13.5],
    [16, 17],
    [21, 22],
  ])('deck.gl %d ↔ Google %d', (deck, google) => {
    expect(GOOGLE_ZOOM_OFFSET).toBe(1);
    expect(googleZoomFromDeck(deck)).toBe(google);
    expect(deckZoomFromGoogle(google)).toBe(deck);
  });

  it.each([3, 11, 16])('one scale: a pixel spans the same longitude in deck.gl at %d as in Google one above', (deck) => {
    const viewport = new WebMercatorViewport({ width: 1024, height: 768, longitude: -97.7431, latitude: 30.2672, zoom: deck });
    const [west] = viewport.unproject([0, 384]) as [number, number];
    const [east] = viewport.unproject([1024, 384]) as [number, number];
    const googleDegreesPerPixel = 360 / (GOOGLE_TILE_PX * 2 ** googleZoomFromDeck(deck));
    expect((east - west) / 1024).toBeCloseTo(googleDegreesPerPixel, 12);
  });
});
