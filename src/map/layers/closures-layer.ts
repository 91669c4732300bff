/**
 * The closures on the dashboard map (part 2 §2 Closures): each closure's path as a line in its
 * status colour, a start and an end marker, and arrows along the path pointing the way it was drawn
 * (the direction of travel it closes). The targeted closure's path is drawn wider in the focus
 * colour. Closures are few (tens to hundreds), so accessors per closure are fine here. The colours
 * are the asset status colours of the same words (app.css --status-N); the sizes are ours.
 */
import type { Layer, PickingInfo } from '@deck.gl/core';
import { PathLayer, ScatterplotLayer, TextLayer } from '@deck.gl/layers';
import type { Closure, ClosureStatus } from '../../domain/closure';
import type { LatLng } from '../../domain/geometry';
import { CLOSURE_STYLE } from './closures-style';

export { CLOSURE_STYLE };

export const ARROW_GLYPH = '▲';

export interface ClosurePathDatum {
  id: string;
  path: [number, number][];
  status: ClosureStatus;
}

export interface ClosureMarkerDatum {
  id: string;
  position: [number, number];
  end: 'start' | 'end';
}

export interface ClosureArrowDatum {
  id: string;
  position: [number, number];
  /** Degrees counter-clockwise from north (deck.gl's getAngle). */
  angle: number;
}

const lngLat = (p: LatLng): [number, number] => [p.lng, p.lat];

/** The compass course from a to b in degrees (0 north, 90 east); flat-earth, fine along a street. */
export function segmentCourse(aLng: number, aLat: number, bLng: number, bLat: number): number {
  const east = (bLng - aLng) * Math.cos((((aLat + bLat) / 2) * Math.PI) / 180);
  const north = bLat - aLat;
  return ((Math.atan2(east, north) * 180) / Math.PI + 360) % 360;
}

/** The drawable closures: those with a path of at least two points. */
/** What the layers read of a closure (a form's draft is drawn with the same layers). */
export type DrawnClosure = Pick<Closure, 'id' | 'routePath' | 'status'>;

export function closurePaths(closures: readonly DrawnClosure[]): ClosurePathDatum[] {
  return closures.filter((c) => c.routePath.length >= 2).map((c) => ({ id: c.id, path: c.routePath.map(lngLat), status: c.status }));
}

export function closureMarkers(paths: readonly ClosurePathDatum[]): ClosureMarkerDatum[] {
  return paths.flatMap((p) => [
    { id: p.id, position: p.path[0]!, end: 'start' as const },
    { id: p.id, position: p.path[p.path.length - 1]!, end: 'end' as const },
  ]);
}

/** Arrows at the middle of some segments, pointing from the start towards the end. */
export function closureArrows(paths: readonly ClosurePathDatum[]): ClosureArrowDatum[] {
  const arrows: ClosureArrowDatum[] = [];
  for (const p of paths) {
    const step = Math.max(1, Math.floor((p.path.length - 1) / CLOSURE_STYLE.arrowEvery));
    for (let i = 0; i + 1 < p.path.length; i += step) {
      const [aLng, aLat] = p.path[i]!;
      const [bLng, bLat] = p.path[i + 1]!;
      if (aLng === bLng && aLat === bLat) continue;
      const course = segmentCourse(aLng, aLat, bLng, bLat);
      arrows.push({ id: p.id, position: [(aLng + bLng) / 2, (aLat + bLat) / 2], angle: -course });
    }
  }
  return arrows;
}

export interface ClosuresLayerProps {
  closures: readonly DrawnClosure[];
  targetId: string | null;
  /** A click on a closure's path, marker or arrow. Returns true when handled. */
  onClick?: (id: string) => boolean;
  /** The pointer over a closure's path, marker or arrow (pixels from the map's corner), null when it leaves. */
  onHover?: (pick: { id: string; x: number; y: number } | null) => void;
  /**
   * The start of the layers' ids ('closures'): a second set on the map at the same time (the
   * form's own path beside the list's) needs its own, or deck.gl mixes the two up.
   */
  idPrefix?: string;
}

/** The layers under the fleet (paths, arrows) and over it (start/end markers); ids start with `idPrefix`. */
export function closuresLayers({ closures, targetId, onClick, onHover, idPrefix = 'closures' }: ClosuresLayerProps): {
  under: Layer[];
  over: Layer[];
} {
  const paths = closurePaths(closures);
  const click = onClick ? (info: PickingInfo<{ id: string }>) => (info.object ? onClick(info.object.id) : false) : undefined;
  const hover = onHover
    ? (info: PickingInfo<{ id: string }>) => {
        onHover(info.object ? { id: info.object.id, x: info.x, y: info.y } : null);
        return info.object !== undefined && info.object !== null;
      }
    : undefined;
  const events = { ...(click ? { onClick: click } : {}), ...(hover ? { onHover: hover } : {}) };
  const target = paths.filter((p) => p.id === targetId);
  const under: Layer[] = [
    new PathLayer<ClosurePathDatum>({
      id: `${idPrefix}-target`,
      data: target,
      getPath: (d) => d.path,
      getColor: CLOSURE_STYLE.target,
      getWidth: CLOSURE_STYLE.targetLinePx,
      widthUnits: 'pixels',
      capRounded: true,
      jointRounded: true,
    }),
    new PathLayer<ClosurePathDatum>({
      id: `${idPrefix}-paths`,
      data: paths,
      getPath: (d) => d.path,
      getColor: (d) => CLOSURE_STYLE.status[d.status],
      getWidth: CLOSURE_STYLE.linePx,
      widthUnits: 'pixels',
      capRounded: true,
      jointRounded: true,
      pickable: true,
      ...events,
    }),
    new TextLayer<ClosureArrowDatum>({
      id: `${idPrefix}-arrows`,
      data: closureArrows(paths),
      getPosition: (d) => d.position,
      getText: () => ARROW_GLYPH,
      getAngle: (d) => d.angle,
      getSize: CLOSURE_STYLE.arrowPx,
      sizeUnits: 'pixels',
      getColor: CLOSURE_STYLE.arrow,
      characterSet: ARROW_GLYPH,
      pickable: true,
      ...events,
    }),
  ];
  const over: Layer[] = [
    new ScatterplotLayer<ClosureMarkerDatum>({
      id: `${idPrefix}-markers`,
      data: closureMarkers(paths),
      getPosition: (d) => d.position,
      getFillColor: (d) => (d.end === 'start' ? CLOSURE_STYLE.start : CLOSURE_STYLE.end),
      getLineColor: CLOSURE_STYLE.markerOutline,
      getRadius: CLOSURE_STYLE.markerPx,
      radiusUnits: 'pixels',
      getLineWidth: CLOSURE_STYLE.markerOutlinePx,
      lineWidthUnits: 'pixels',
      stroked: true,
      pickable: true,
      ...events,
    }),
  ];
  return { under, over };
}
