import { describe, expect, it } from 'vitest';
import { WebMercatorViewport } from '@deck.gl/core';
import { popupAnchor } from '../../../src/app/map/popup-anchor';
import type { Bounds } from '../../../src/app/map/map-state';

describe('a pinned popup sits at its marker (pinned popups)', () => {
  it('matches the map projection: the fraction of the viewport deck.gl projects the point to', () => {
    const viewport = new WebMercatorViewport({ width: 800, height: 600, longitude: -97.74, latitude: 30.27, zoom: 11 });
    const bounds = viewport.getBounds() as Bounds;
    for (const [lng, lat] of [
      [-97.74, 30.27],
      [-97.8, 30.3],
      [-97.65, 30.2],
    ] as const) {
      const [x, y] = viewport.project([lng, lat]);
      const anchor = popupAnchor(bounds, lng, lat)!;
      expect(anchor.x * 800).toBeCloseTo(x!, 0);
      expect(anchor.y * 600).toBeCloseTo(y!, 0);
    }
  });

  it('null without bounds or for a point out of view', () => {
    expect(popupAnchor(null, 0, 0)).toBeNull();
    expect(popupAnchor([-98, 30, -97, 31], -96.5, 30.5)).toBeNull();
    expect(popupAnchor([-98, 30, -97, 31], -97.5, 31.5)).toBeNull();
  });

  it('a repeated world: the copy of the point inside the bounds', () => {
    const anchor = popupAnchor([170, -10, 200, 10], -170, 0)!;
    expect(anchor.x).toBeCloseTo(20 / 30, 9);
    expect(anchor.y).toBeCloseTo(0.5, 9);
  });
});
