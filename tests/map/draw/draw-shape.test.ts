/**
 * The drawing's shapes (src/map/draw/draw-shape.ts): the editable layer's GeoJSON features to the
 * domain's geometry and back (part 2 §3 geometry types), the fewest points of each kind
 * (part 2 §5) and the 7-decimal truncation (part 2 §9).
 */
import { describe, expect, it } from 'vitest';
import { DRAW_MIN_POINTS, featureFromShape, shapeFromClicks, shapeFromFeature } from '../../../src/map/draw/draw-shape';
import type { Geometry } from '../../../src/domain/geometry';

describe('the shapes the drawing reports', () => {
  it('part 2 §5: a polygon needs 3 points, a path 2, a circle its centre and edge, a point one', () => {
    expect(DRAW_MIN_POINTS).toEqual({ point: 1, line: 2, circle: 2, polygon: 3 });
    expect(
      shapeFromClicks('polygon', [
        [-97.7, 30.2],
        [-97.69, 30.2],
      ]),
    ).toBeNull();
    expect(shapeFromClicks('line', [[-97.7, 30.2]])).toBeNull();
    expect(shapeFromClicks('circle', [[-97.7, 30.2]])).toBeNull();
    expect(shapeFromClicks('point', [])).toBeNull();
  });

  it('part 2 §9: positions are truncated to 7 decimals; a closed ring comes back open', () => {
    const ring = [
      [-97.123456789, 30.987654321],
      [-97.1, 30.9],
      [-97.2, 30.95],
      [-97.123456789, 30.987654321],
    ];
    expect(shapeFromFeature('polygon', { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } })).toEqual({
      kind: 'polygon',
      ring: [
        { lat: 30.9876543, lng: -97.1234567 },
        { lat: 30.9, lng: -97.1 },
        { lat: 30.95, lng: -97.2 },
      ],
    });
  });

  it.each<Geometry>([
    { kind: 'point', position: { lat: 30.2672, lng: -97.7431 } },
    {
      kind: 'line',
      path: [
        { lat: 30.2672, lng: -97.7431 },
        { lat: 30.27, lng: -97.74 },
      ],
    },
    {
      kind: 'polygon',
      ring: [
        { lat: 30.2672, lng: -97.7431 },
        { lat: 30.27, lng: -97.74 },
        { lat: 30.26, lng: -97.735 },
      ],
    },
  ])('an existing %j is edited as a feature and reads back the same', (shape) => {
    expect(shapeFromFeature(shape.kind, featureFromShape(shape))).toEqual(shape);
  });

  it('an existing circle reads back with its centre and (to the centimetre) its radius', () => {
    const back = shapeFromFeature('circle', featureFromShape({ kind: 'circle', center: { lat: 30.2672, lng: -97.7431 }, radius: 250 }));
    expect(back?.kind).toBe('circle');
    if (back?.kind !== 'circle') return;
    expect(back.center).toEqual({ lat: 30.2672, lng: -97.7431 });
    expect(back.radius).toBeCloseTo(250, 2);
  });

  it('a feature of another kind is no shape of the asked kind', () => {
    expect(
      shapeFromFeature('polygon', { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [-97.7, 30.2] } }),
    ).toBeNull();
  });
});
