/**
 * Coordinates: the map's coordinate search box (part 1 §5) and how coordinates are written
 * (part 1 §9: "truncated to 7 decimals (5 in the map menu)"). Truncation cuts digits off the
 * decimal text of the number (never rounds, and never shows binary noise: 4.35 stays 4.35).
 */
import { COORDINATE_DECIMALS } from './constants';

export const LAT_MIN = -90;
export const LAT_MAX = 90;
export const LNG_MIN = -180;
export const LNG_MAX = 180;

export interface LatLng {
  readonly lat: number;
  readonly lng: number;
}

/** The shortest decimal text of a number, never in exponent form. */
function plainDecimal(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  // |value| < 1e-6 (coordinates never reach 1e21): 20 fixed digits hold every digit we keep.
  return value.toFixed(20).replace(/0+$/, '');
}

function cut(value: number, decimals: number): { sign: string; whole: string; fraction: string } {
  const text = plainDecimal(Math.abs(value));
  const [whole = '0', fraction = ''] = text.split('.');
  const kept = fraction.slice(0, decimals);
  const isZero = /^0*$/.test(whole) && /^0*$/.test(kept);
  return { sign: value < 0 && !isZero ? '-' : '', whole, fraction: kept };
}

/** A number truncated (toward zero) to `decimals` places. */
export function truncateCoordinate(value: number, decimals: number = COORDINATE_DECIMALS): number {
  if (!Number.isFinite(value)) return value;
  const { sign, whole, fraction } = cut(value, decimals);
  return Number(`${sign}${whole}${fraction ? `.${fraction}` : ''}`);
}

/** The text of a coordinate truncated to exactly `decimals` places, zero-padded: (12.3, 5) → '12.30000'. */
export function formatCoordinate(value: number, decimals: number): string {
  const { sign, whole, fraction } = cut(value, decimals);
  return decimals > 0 ? `${sign}${whole}.${fraction.padEnd(decimals, '0')}` : `${sign}${whole}`;
}

/**
 * The text of a coordinate truncated to at most `decimals` places, without trailing zeros
 * (part 1 §9 "truncated to 7 decimals"): (30.267212345) → '30.2672123', (30.2672) → '30.2672'.
 */
export function formatTruncatedCoordinate(value: number, decimals: number = COORDINATE_DECIMALS): string {
  const { sign, whole, fraction } = cut(value, decimals);
  const kept = fraction.replace(/0+$/, '');
  return kept ? `${sign}${whole}.${kept}` : `${sign}${whole}`;
}

/** 'lat, lng' truncated to COORDINATE_DECIMALS (7) places, without trailing zeros (the event detail and its copy). */
export function formatTruncatedLatLng(point: LatLng): string {
  return `${formatTruncatedCoordinate(point.lat)}, ${formatTruncatedCoordinate(point.lng)}`;
}

/** 'lat, lng' with both truncated to `decimals` places (the map menu and copy actions). */
export function formatLatLng(point: LatLng, decimals: number): string {
  return `${formatCoordinate(point.lat, decimals)}, ${formatCoordinate(point.lng, decimals)}`;
}

export function isValidLatLng(point: LatLng): boolean {
  return (
    Number.isFinite(point.lat) &&
    Number.isFinite(point.lng) &&
    point.lat >= LAT_MIN &&
    point.lat <= LAT_MAX &&
    point.lng >= LNG_MIN &&
    point.lng <= LNG_MAX
  );
}

const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)`;
const SEARCH = new RegExp(String.raw`^\s*(${NUMBER})\s*,\s*(${NUMBER})\s*$`);

/**
 * part 1 §5: the coordinate search text is two comma-separated numbers, lat -90..90 and lng
 * -180..180; anything else is invalid (null). The range is checked on the numbers as typed
 * (90.00000001 is out of range even though it truncates to 90); the point returned is truncated
 * to COORDINATE_DECIMALS.
 */
export function parseCoordinateSearch(text: string): LatLng | null {
  const match = SEARCH.exec(text);
  if (!match?.[1] || !match[2]) return null;
  const point = { lat: Number(match[1]), lng: Number(match[2]) };
  if (!isValidLatLng(point)) return null;
  return { lat: truncateCoordinate(point.lat), lng: truncateCoordinate(point.lng) };
}
