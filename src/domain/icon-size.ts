/** Marker icon size by map zoom (part 1 §2 Map, §9: small below zoom 11, medium below 13, large otherwise). */
import { ICON_MEDIUM_BELOW_ZOOM, ICON_SMALL_BELOW_ZOOM } from './constants';

export const ICON_SIZES = ['small', 'medium', 'large'] as const;
export type IconSize = (typeof ICON_SIZES)[number];

export function iconSize(zoom: number): IconSize {
  if (zoom < ICON_SMALL_BELOW_ZOOM) return 'small';
  if (zoom < ICON_MEDIUM_BELOW_ZOOM) return 'medium';
  return 'large';
}
