/**
 * part 2 §2 Alerting zones on the map: each feature kind of a zone (src/domain/geometry.ts) is drawn
 * by the right layer in its status colour (§4), and the Map mode fits every position of the zones.
 */
import { describe, expect, it } from 'vitest';
import type { AlertingZone } from '../../src/domain/alerting-zone';
import { CIRCLE_STEPS } from '../../src/map/layers/areas-layer';
import { ZONE_STYLE, zoneDrawing, zonePositions, zonesLayers, zoneThingsLayer } from '../../src/map/layers/zones-layer';

const zone: Pick<AlertingZone, 'id' | 'status' | 'features'> = {
  id: 'z-1',
  status: 'standby',
  features: [
    {
      kind: 'polygon',
      ring: [
        { lat: 30, lng: -97 },
        { lat: 30, lng: -96.99 },
        { lat: 30.01, lng: -96.99 },
      ],
    },
    { kind: 'circle', center: { lat: 30.2, lng: -97.7 }, radius: 300 },
    {
      kind: 'line',
      path: [
        { lat: 30.1, lng: -97.1 },
        { lat: 30.11, lng: -97.11 },
      ],
    },
    { kind: 'point', position: { lat: 30.3, lng: -97.3 } },
  ],
};

describe('part2 §2 zones layer', () => {
  it('draws polygons and circles as shapes, lines as paths, points as dots', () => {
    const drawing = zoneDrawing([zone]);
    expect(drawing.shapes.map((s) => s.ring.length)).toEqual([3, CIRCLE_STEPS]);
    expect(drawing.shapes[0]!.ring[1]).toEqual([-96.99, 30]);
    expect(drawing.paths).toEqual([
      {
        id: 'z-1',
        status: 'standby',
        path: [
          [-97.1, 30.1],
          [-97.11, 30.11],
        ],
      },
    ]);
    expect(drawing.points).toEqual([{ id: 'z-1', status: 'standby', position: [-97.3, 30.3] }]);
  });

  it('colours by status and names every layer zones-*', () => {
    const layers = zonesLayers({ zones: [zone, { ...zone, id: 'z-2', status: 'active' }] });
    expect(layers.every((layer) => layer.id.startsWith('zones'))).toBe(true);
    const shapes = layers.find((layer) => layer.id === 'zones-shapes')!;
    const getLineColor = (shapes.props as unknown as { getLineColor: (d: { status: string }) => unknown }).getLineColor;
    expect(getLineColor({ status: 'active' })).toEqual(ZONE_STYLE.status.active);
    expect(getLineColor({ status: 'standby' })).toEqual(ZONE_STYLE.status.standby);
    expect(ZONE_STYLE.status.active).not.toEqual(ZONE_STYLE.status.standby);
    expect(zoneThingsLayer([[-97, 30]]).id).toBe('zones-things');
  });

  it('fits every position of the zones (corners, the circle around its centre, paths, points)', () => {
    const positions = zonePositions([zone]);
    const lats = positions.map((p) => p.lat);
    expect(Math.min(...lats)).toBe(30);
    expect(Math.max(...lats)).toBe(30.3);
    // The circle's ring reaches 300 m either side of its centre.
    expect(Math.max(...positions.filter((p) => Math.abs(p.lng + 97.7) < 0.01).map((p) => p.lat))).toBeGreaterThan(30.2026);
  });
});
