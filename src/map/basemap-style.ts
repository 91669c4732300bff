/**
 * The standalone basemap's look in its two themes (RGB[A]): the outlines' colours (the map's
 * background is the water), the vector streets' roads by class, areas and names. Day is the
 * default; night dims the map for dispatch rooms that run dark (docs/map.md "Night mode"). Chosen, not in
 * the spec (docs/map.md "Basemap").
 */

type RGB = [number, number, number];
type RGBA = [number, number, number, number];

/** The page's theme: day (light) or night (dark). */
export type MapTheme = 'day' | 'night';

export type RoadClass = 'highway' | 'major_road' | 'minor_road' | 'other';

export interface BasemapStyle {
  /** The offline outlines and the background (the water). */
  outlines: { water: RGB; land: RGB; country: RGBA; state: RGBA; county: RGBA };
  roads: Readonly<Record<RoadClass, { color: RGBA; widthPx: number; minZoom: number }>>;
  areas: Readonly<Record<'earth' | 'water' | 'park' | 'landuse' | 'building', RGBA>>;
  labels: {
    fontFamily: string;
    street: { color: RGBA; sizePx: number };
    place: { color: RGBA; sizePx: number };
    halo: RGBA;
    haloWidth: number;
  };
}

const DAY: BasemapStyle = {
  outlines: {
    water: [170, 211, 223],
    land: [242, 239, 233],
    country: [120, 120, 130, 255],
    state: [150, 150, 160, 220],
    county: [190, 190, 200, 160],
  },
  roads: {
    highway: { color: [233, 150, 90, 255], widthPx: 6, minZoom: 0 },
    major_road: { color: [250, 205, 110, 255], widthPx: 5, minZoom: 0 },
    minor_road: { color: [255, 255, 255, 255], widthPx: 3.5, minZoom: 12 },
    other: { color: [255, 255, 255, 200], widthPx: 1.5, minZoom: 14 },
  },
  areas: {
    earth: [242, 239, 233, 255],
    water: [170, 211, 223, 255],
    park: [205, 235, 176, 255],
    landuse: [232, 228, 220, 255],
    building: [217, 208, 201, 255],
  },
  labels: {
    fontFamily: 'sans-serif',
    street: { color: [60, 60, 70, 255], sizePx: 13 },
    place: { color: [40, 40, 50, 255], sizePx: 16 },
    /** The halo that keeps names readable over roads. */
    halo: [255, 255, 255, 230],
    haloWidth: 3,
  },
};

/** Night: dark land, darker water, roads a step lighter than the land, names light on a dark halo. */
const NIGHT: BasemapStyle = {
  outlines: {
    water: [22, 38, 56],
    land: [36, 41, 50],
    country: [150, 160, 175, 255],
    state: [120, 130, 148, 220],
    county: [85, 94, 110, 170],
  },
  roads: {
    highway: { color: [150, 105, 70, 255], widthPx: 6, minZoom: 0 },
    major_road: { color: [120, 112, 90, 255], widthPx: 5, minZoom: 0 },
    minor_road: { color: [72, 80, 94, 255], widthPx: 3.5, minZoom: 12 },
    other: { color: [64, 71, 84, 220], widthPx: 1.5, minZoom: 14 },
  },
  areas: {
    earth: [36, 41, 50, 255],
    water: [22, 38, 56, 255],
    park: [34, 54, 42, 255],
    landuse: [42, 46, 55, 255],
    building: [52, 57, 68, 255],
  },
  labels: {
    fontFamily: 'sans-serif',
    street: { color: [205, 212, 224, 255], sizePx: 13 },
    place: { color: [226, 232, 240, 255], sizePx: 16 },
    halo: [20, 24, 31, 230],
    haloWidth: 3,
  },
};

export const BASEMAP_STYLES: Readonly<Record<MapTheme, BasemapStyle>> = { day: DAY, night: NIGHT };

/** The day style's parts under their own names (tests and the end-to-end pixel checks compare with them). */
export const BASEMAP_COLORS = DAY.outlines;
export const ROAD_STYLE = DAY.roads;
export const AREA_COLORS = DAY.areas;
export const LABEL_STYLE = DAY.labels;

/** Counties appear from this zoom (below it their outlines would be a grey smear). */
export const COUNTY_MIN_ZOOM = 6;

/** A road's class from its tile properties (`kind`; anything unknown draws as a minor path). */
export function roadClass(kind: unknown): RoadClass {
  return kind === 'highway' || kind === 'major_road' || kind === 'minor_road' ? kind : 'other';
}
/** Rivers and streams (lines of the `water` layer), in the water colour. */
export const WATER_LINE_WIDTH_PX = 2;

/** Land-use kinds drawn green (the rest a quiet grey). */
export const PARK_KINDS = new Set([
  'park',
  'forest',
  'wood',
  'grass',
  'nature_reserve',
  'garden',
  'golf_course',
  'cemetery',
  'playground',
  'national_park',
]);

/** Buildings from this zoom (below it they are noise). */
export const BUILDING_MIN_ZOOM = 15;
/** Street names from this zoom ("street zoom"); place names from PLACE_LABEL_MIN_ZOOM to PLACE_LABEL_MAX_ZOOM (at street zoom the streets say where you are). */
export const STREET_LABEL_MIN_ZOOM = 14;
export const PLACE_LABEL_MIN_ZOOM = 9;
export const PLACE_LABEL_MAX_ZOOM = 13;
