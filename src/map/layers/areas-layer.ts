/**
 * The organization's areas on the dashboard map (part 1
 * §2 Map "Area markers show asset counts"): each area's shape lightly filled (a circle as a ring),
 * and at its marker position a badge with the number of assets inside it (counted by the live
 * worker). The targeted area's outline is drawn in the focus colour. Areas are few (tens), so
 * accessors per area are fine here.
 */
import type { Layer, PickingInfo } from '@deck.gl/core';
import { PolygonLayer, TextLayer } from '@deck.gl/layers';
import type { Area } from '../../domain/area';
import { areaMarkerPosition, areaShape, type AreaShape } from '../../domain/area-shape';
import { circleToRing, worldPixel } from '../../domain/geometry';
import {
  AREA_BADGE_BORDER_COLOR,
  AREA_BADGE_BORDER_PX,
  AREA_BADGE_COLOR,
  AREA_BADGE_FONT_PX,
  AREA_BADGE_TEXT_COLOR,
  AREA_FILL_COLOR,
  AREA_LINE_COLOR,
  AREA_LINE_PX,
  AREA_TARGET_LINE_COLOR,
  AREA_TARGET_LINE_PX,
} from './overlay-style';

/** Corners of a circle drawn as a ring. */
export const CIRCLE_STEPS = 48;
/** The badge before the worker's first count. */
export const AREA_COUNT_PENDING = '-';
const BADGE_CHARACTERS = `0123456789${AREA_COUNT_PENDING}`;

export interface AreaMarker {
  id: string;
  area: Area;
  /** [lng, lat] of the badge. */
  position: [number, number];
  shape: AreaShape | null;
  /** Assets inside, null until counted. */
  count: number | null;
}

/** The closed-or-open outline to draw, [lng, lat] per corner. */
export function shapeOutline(shape: AreaShape): [number, number][] {
  const ring = shape.kind === 'circle' ? circleToRing(shape.center, shape.radius, CIRCLE_STEPS) : shape.ring;
  return ring.map((p) => [p.lng, p.lat]);
}

/** The badge text: the count, or AREA_COUNT_PENDING before the first count. */
export function areaCountLabel(count: number | null): string {
  return count === null ? AREA_COUNT_PENDING : String(count);
}

/** The markers of the areas that have somewhere to sit (legacy areas have none), with their counts. */
export function areaMarkers(areas: readonly Area[], counts: Readonly<Record<string, number>> | null): AreaMarker[] {
  const markers: AreaMarker[] = [];
  for (const area of areas) {
    const at = areaMarkerPosition(area);
    if (!at) continue;
    const shape = areaShape(area);
    markers.push({ id: area.id, area, position: [at.lng, at.lat], shape, count: counts?.[area.id] ?? null });
  }
  return markers;
}

/**
 * chosen: two badges whose centres are closer than this across and down (px) would overlap (a badge
 * is about 30 × 22 px with its padding and border, two or three digits wide).
 */
export const AREA_BADGE_SPACING_PX = { x: 40, y: 24 } as const;

/**
 * The badges to draw at `zoom`: where badges would overlap, the targeted area's wins, then the one
 * counting more assets, then the earlier one, so a zoomed-out region's badges do not pile up on
 * one another. Two places' distance in pixels depends on the zoom alone, so panning never changes
 * the answer. Areas are tens: the pairwise check is cheap.
 */
export function visibleBadges(markers: readonly AreaMarker[], zoom: number, targetId: string | null): AreaMarker[] {
  const rank = (m: AreaMarker) => (m.id === targetId ? Number.POSITIVE_INFINITY : (m.count ?? -1));
  const byPriority = markers
    .map((marker, index) => ({ marker, index }))
    .sort((a, b) => rank(b.marker) - rank(a.marker) || a.index - b.index);
  const kept: { x: number; y: number }[] = [];
  const shown = new Set<AreaMarker>();
  for (const { marker } of byPriority) {
    const [x, y] = worldPixel(marker.position[0], marker.position[1], zoom);
    if (kept.some((k) => Math.abs(k.x - x) < AREA_BADGE_SPACING_PX.x && Math.abs(k.y - y) < AREA_BADGE_SPACING_PX.y)) continue;
    kept.push({ x, y });
    shown.add(marker);
  }
  return markers.filter((marker) => shown.has(marker));
}

export interface AreasLayerProps {
  markers: readonly AreaMarker[];
  targetId: string | null;
  /** The map's zoom: badges that would overlap at it are thinned out (`visibleBadges`). */
  zoom: number;
  onHover?: (info: PickingInfo<AreaMarker>) => void;
  onClick?: (info: PickingInfo<AreaMarker>) => boolean;
}

/**
 * The areas' two layers, apart because they sit at different heights of the map: the shapes under
 * the fleet (a light fill over a street must not hide the assets on it), the count badges over it
 * (an area's badge stays readable and clickable at a busy station).
 */
export interface AreaLayers {
  shapes: Layer;
  badges: Layer;
}

export function areasLayers({ markers, targetId, zoom, onHover, onClick }: AreasLayerProps): AreaLayers {
  const shaped = markers.filter((m) => m.shape !== null);
  return {
    shapes: new PolygonLayer<AreaMarker>({
      id: 'area-shapes',
      data: shaped,
      getPolygon: (m) => shapeOutline(m.shape as AreaShape),
      getFillColor: AREA_FILL_COLOR,
      getLineColor: (m) => (m.id === targetId ? AREA_TARGET_LINE_COLOR : AREA_LINE_COLOR),
      getLineWidth: (m) => (m.id === targetId ? AREA_TARGET_LINE_PX : AREA_LINE_PX),
      lineWidthUnits: 'pixels',
      filled: true,
      stroked: true,
      pickable: false,
      updateTriggers: { getLineColor: targetId, getLineWidth: targetId },
    }),
    badges: new TextLayer<AreaMarker>({
      id: 'area-markers',
      data: visibleBadges(markers, zoom, targetId),
      getPosition: (m) => m.position,
      getText: (m) => areaCountLabel(m.count),
      getSize: AREA_BADGE_FONT_PX,
      sizeUnits: 'pixels',
      getColor: AREA_BADGE_TEXT_COLOR,
      fontWeight: 700,
      characterSet: BADGE_CHARACTERS,
      background: true,
      getBackgroundColor: AREA_BADGE_COLOR,
      getBorderColor: (m) => (m.id === targetId ? AREA_TARGET_LINE_COLOR : AREA_BADGE_BORDER_COLOR),
      getBorderWidth: AREA_BADGE_BORDER_PX,
      backgroundPadding: [7, 3],
      backgroundBorderRadius: 9,
      pickable: true,
      updateTriggers: { getBorderColor: targetId },
      ...(onHover ? { onHover } : {}),
      ...(onClick ? { onClick } : {}),
    }),
  };
}
