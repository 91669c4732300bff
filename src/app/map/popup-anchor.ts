/**
 * Where a pinned popup sits over the map: the point's place inside the visible bounds, as fractions
 * of the map's width and height (Web Mercator, as the map draws), so the popup needs no pixel size
 * of the map and follows it on every view change. Null when the point is not in view.
 */
import { mercatorY } from '../../domain/geometry';
import type { Bounds } from './map-state';

export interface PopupAnchor {
  /** 0 at the west edge, 1 at the east edge. */
  x: number;
  /** 0 at the north edge, 1 at the south edge. */
  y: number;
}

export function popupAnchor(bounds: Bounds | null, longitude: number, latitude: number): PopupAnchor | null {
  if (!bounds) return null;
  const [west, south, east, north] = bounds;
  if (east <= west || north <= south) return null;
  // The map repeats the world: take the copy of the point that lies in the bounds.
  let lng = longitude;
  if (lng < west) lng += 360 * Math.ceil((west - lng) / 360);
  else if (lng > east) lng -= 360 * Math.ceil((lng - east) / 360);
  const x = (lng - west) / (east - west);
  const top = mercatorY(north);
  const y = (top - mercatorY(latitude)) / (top - mercatorY(south));
  if (x < 0 || x > 1 || y < 0 || y > 1) return null;
  return { x, y };
}
