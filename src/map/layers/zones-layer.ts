/**
 * The alerting zones on the dashboard map (part 2 §2 Alerting zones "A list or map of zones"):
 * each zone's features (polygons, circles, lines, points; src/domain/geometry.ts) as outlines in its
 * status colour (§4: active or standby) over a white halo, so they read on the day and the night
 * basemaps, with a light fill inside the shapes. With 'Show things on map' on, the shown zones'
 * assets get a ring in the focus colour (`zoneThingsLayer`). Zones are few: accessors per zone.
 */
import type { Layer, PickingInfo } from '@deck.gl/core';
import { PathLayer, PolygonLayer, ScatterplotLayer } from '@deck.gl/layers';
import type { AlertingZone, ZoneStatus } from '../../domain/alerting-zone';
import { circleToRing, type LatLng } from '../../domain/geometry';
import { CIRCLE_STEPS } from './areas-layer';
import { TARGET_COLOR, type Rgba } from './overlay-style';

/** Colours (the closure/asset status colours of the same words, app.css --status-1/2) and sizes. */
export const ZONE_STYLE = {
  status: {
    active: [245, 124, 0, 255],
    standby: [46, 125, 50, 255],
  } satisfies Record<ZoneStatus, Rgba>,
  /** The shapes' fill: the status colour at this alpha. */
  fillAlpha: 40,
  halo: [255, 255, 255, 220] as Rgba,
  linePx: 3,
  haloPx: 6,
  pointPx: 7,
  thingRing: TARGET_COLOR,
  thingRingPx: 12,
  thingRingLinePx: 3,
} as const;

export interface ZoneShapeDatum {
  id: string;
  status: ZoneStatus;
  /** [lng, lat] per corner (a circle as a ring of CIRCLE_STEPS corners). */
  ring: [number, number][];
}

export interface ZonePathDatum {
  id: string;
  status: ZoneStatus;
  path: [number, number][];
}

export interface ZonePointDatum {
  id: string;
  status: ZoneStatus;
  position: [number, number];
}

export interface ZoneDrawing {
  shapes: ZoneShapeDatum[];
  paths: ZonePathDatum[];
  points: ZonePointDatum[];
}

const lngLat = (p: LatLng): [number, number] => [p.lng, p.lat];

/** Every feature of the zones, by how it is drawn. */
export function zoneDrawing(zones: readonly Pick<AlertingZone, 'id' | 'status' | 'features'>[]): ZoneDrawing {
  const drawing: ZoneDrawing = { shapes: [], paths: [], points: [] };
  for (const zone of zones) {
    for (const feature of zone.features) {
      const base = { id: zone.id, status: zone.status };
      if (feature.kind === 'polygon') drawing.shapes.push({ ...base, ring: feature.ring.map(lngLat) });
      else if (feature.kind === 'circle')
        drawing.shapes.push({ ...base, ring: circleToRing(feature.center, feature.radius, CIRCLE_STEPS).map(lngLat) });
      else if (feature.kind === 'line') drawing.paths.push({ ...base, path: feature.path.map(lngLat) });
      else drawing.points.push({ ...base, position: lngLat(feature.position) });
    }
  }
  return drawing;
}

/** Every corner, point and path position of the zones (what the map fits in Map mode). */
export function zonePositions(zones: readonly Pick<AlertingZone, 'features'>[]): LatLng[] {
  const positions: LatLng[] = [];
  for (const zone of zones) {
    for (const feature of zone.features) {
      if (feature.kind === 'polygon') positions.push(...feature.ring);
      else if (feature.kind === 'circle') positions.push(...circleToRing(feature.center, feature.radius, 8));
      else if (feature.kind === 'line') positions.push(...feature.path);
      else positions.push(feature.position);
    }
  }
  return positions;
}

export interface ZonePick {
  id: string;
  /** Screen position of the pointer (hover) and map position (click). */
  x: number;
  y: number;
  lng: number;
  lat: number;
}

export interface ZonesLayerProps {
  zones: readonly Pick<AlertingZone, 'id' | 'status' | 'features'>[];
  onHover?: (pick: ZonePick | null) => void;
  onClick?: (pick: ZonePick) => void;
}

function picker(handler: ((pick: ZonePick) => void) | undefined) {
  return (info: PickingInfo<{ id: string }>) => {
    if (!handler || !info.object || !info.coordinate) return false;
    handler({ id: info.object.id, x: info.x, y: info.y, lng: info.coordinate[0]!, lat: info.coordinate[1]! });
    return true;
  };
}

function withAlpha([r, g, b]: Rgba, alpha: number): Rgba {
  return [r, g, b, alpha];
}

/** The zones' layers, under the fleet (they never hide an asset); ids start with 'zones'. */
export function zonesLayers({ zones, onHover, onClick }: ZonesLayerProps): Layer[] {
  const { shapes, paths, points } = zoneDrawing(zones);
  const click = picker(onClick);
  const hover = (info: PickingInfo<{ id: string }>) => {
    if (!onHover) return false;
    if (!info.object) {
      onHover(null);
      return false;
    }
    return picker(onHover)(info);
  };
  const events = { pickable: true, onClick: click, onHover: hover };
  const colour = (d: { status: ZoneStatus }) => ZONE_STYLE.status[d.status];
  return [
    new PolygonLayer<ZoneShapeDatum>({
      id: 'zones-shape-halo',
      data: shapes,
      getPolygon: (d) => d.ring,
      filled: false,
      stroked: true,
      getLineColor: ZONE_STYLE.halo,
      getLineWidth: ZONE_STYLE.haloPx,
      lineWidthUnits: 'pixels',
    }),
    new PolygonLayer<ZoneShapeDatum>({
      id: 'zones-shapes',
      data: shapes,
      getPolygon: (d) => d.ring,
      filled: true,
      stroked: true,
      getFillColor: (d) => withAlpha(ZONE_STYLE.status[d.status], ZONE_STYLE.fillAlpha),
      getLineColor: colour,
      getLineWidth: ZONE_STYLE.linePx,
      lineWidthUnits: 'pixels',
      updateTriggers: { getFillColor: [zones], getLineColor: [zones] },
      ...events,
    }),
    new PathLayer<ZonePathDatum>({
      id: 'zones-path-halo',
      data: paths,
      getPath: (d) => d.path,
      getColor: ZONE_STYLE.halo,
      getWidth: ZONE_STYLE.haloPx,
      widthUnits: 'pixels',
      capRounded: true,
      jointRounded: true,
    }),
    new PathLayer<ZonePathDatum>({
      id: 'zones-paths',
      data: paths,
      getPath: (d) => d.path,
      getColor: colour,
      getWidth: ZONE_STYLE.linePx,
      widthUnits: 'pixels',
      capRounded: true,
      jointRounded: true,
      ...events,
    }),
    new ScatterplotLayer<ZonePointDatum>({
      id: 'zones-points',
      data: points,
      getPosition: (d) => d.position,
      getFillColor: colour,
      getLineColor: ZONE_STYLE.halo,
      getRadius: ZONE_STYLE.pointPx,
      radiusUnits: 'pixels',
      stroked: true,
      lineWidthMinPixels: 2,
      ...events,
    }),
  ];
}

/** 'Show things on map': a ring in the focus colour around each of the shown zones' assets ([lng, lat]). */
export function zoneThingsLayer(positions: readonly [number, number][]): Layer {
  return new ScatterplotLayer<[number, number]>({
    id: 'zones-things',
    data: positions as [number, number][],
    getPosition: (d) => d,
    filled: false,
    stroked: true,
    getLineColor: ZONE_STYLE.thingRing,
    getRadius: ZONE_STYLE.thingRingPx,
    radiusUnits: 'pixels',
    getLineWidth: ZONE_STYLE.thingRingLinePx,
    lineWidthUnits: 'pixels',
  });
}
