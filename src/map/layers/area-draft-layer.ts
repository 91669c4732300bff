/**
 * The shape an area form holds once its drawing ended (part 2 §2 Areas form): drawn on the map
 * until the form saves or leaves, so the dispatcher sees what Save will send — a polygon or a
 * circle as a filled outline, a point of interest as a dot. While the drawing runs, the drawing
 * layer shows the shape itself.
 */
import type { Layer } from '@deck.gl/core';
import { PolygonLayer, ScatterplotLayer } from '@deck.gl/layers';
import { circleToRing, type Geometry } from '../../domain/geometry';
import { CIRCLE_STEPS } from './areas-layer';

type Rgba = [number, number, number, number];

/** The draft's colours (one table: the night theme may swap it). */
export const AREA_DRAFT_STYLE = {
  fill: [21, 101, 192, 46] as Rgba,
  line: [21, 101, 192, 255] as Rgba,
  linePx: 2.5,
  pointRadiusPx: 7,
  pointLine: [255, 255, 255, 255] as Rgba,
} as const;

/** The draft's layers, ids under `prefix` (the section's key); none without a shape. */
export function areaDraftLayers(shape: Geometry | null, prefix: string): Layer[] {
  if (!shape) return [];
  if (shape.kind === 'point') {
    return [
      new ScatterplotLayer<Geometry>({
        id: `${prefix}-draft-point`,
        data: [shape],
        getPosition: () => [shape.position.lng, shape.position.lat],
        getRadius: AREA_DRAFT_STYLE.pointRadiusPx,
        radiusUnits: 'pixels',
        getFillColor: AREA_DRAFT_STYLE.line,
        getLineColor: AREA_DRAFT_STYLE.pointLine,
        lineWidthUnits: 'pixels',
        getLineWidth: 2,
        stroked: true,
        pickable: false,
      }),
    ];
  }
  const ring =
    shape.kind === 'circle' ? circleToRing(shape.center, shape.radius, CIRCLE_STEPS) : shape.kind === 'polygon' ? shape.ring : [];
  if (ring.length < 3) return [];
  return [
    new PolygonLayer<LatLngRing>({
      id: `${prefix}-draft-shape`,
      data: [{ ring }],
      getPolygon: (d) => d.ring.map((p) => [p.lng, p.lat]),
      getFillColor: AREA_DRAFT_STYLE.fill,
      getLineColor: AREA_DRAFT_STYLE.line,
      getLineWidth: AREA_DRAFT_STYLE.linePx,
      lineWidthUnits: 'pixels',
      filled: true,
      stroked: true,
      pickable: false,
    }),
  ];
}

interface LatLngRing {
  ring: { lat: number; lng: number }[];
}
