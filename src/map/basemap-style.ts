/** The offline basemap's look (RGB[A]); the map's background is the water. Chosen, not in the spec (README). */
export const BASEMAP_COLORS = {
  water: [170, 211, 223] as [number, number, number],
  land: [242, 239, 233] as [number, number, number],
  country: [120, 120, 130, 255] as [number, number, number, number],
  state: [150, 150, 160, 220] as [number, number, number, number],
  county: [190, 190, 200, 160] as [number, number, number, number],
};

/** Counties appear from this zoom (below it their outlines would be a grey smear). */
export const COUNTY_MIN_ZOOM = 6;

type RGBA = [number, number, number, number];

/**
 * The vector basemap's style (roads, water, land use, buildings, names), one for the demo network's
 * tiles and a regional PMTiles file: both use the Protomaps basemap's layers (`roads`, `water`,
 * `landuse`, `buildings`, `places`) and its `kind` values. Chosen, not in the spec (README "Basemap").
 */
export const ROAD_STYLE: Readonly<Record<'highway' | 'major_road' | 'minor_road' | 'other', { color: RGBA; widthPx: number; minZoom: number }>> = {
  highway: { color: [233, 150, 90, 255], widthPx: 6, minZoom: 0 },
  major_road: { color: [250, 205, 110, 255], widthPx: 5, minZoom: 0 },
  minor_road: { color: [255, 255, 255, 255], widthPx: 3.5, minZoom: 12 },
  other: { color: [255, 255, 255, 200], widthPx: 1.5, minZoom: 14 },
};

/** A road's class from its tile properties (`kind`; anything unknown draws as a minor path). */
export function roadClass(kind: unknown): keyof typeof ROAD_STYLE {
  return kind === 'highway' || kind === 'major_road' || kind === 'minor_road' ? kind : 'other';
}

export const AREA_COLORS: Readonly<Record<'earth' | 'water' | 'park' | 'landuse' | 'building', RGBA>> = {
  earth: [242, 239, 233, 255],
  water: [170, 211, 223, 255],
  park: [205, 235, 176, 255],
  landuse: [232, 228, 220, 255],
  building: [217, 208, 201, 255],
};

/** Rivers and streams (lines of the `water` layer), in the water colour. */
export const WATER_LINE_WIDTH_PX = 2;

/** Land-use kinds drawn green (the rest a quiet grey). */
export const PARK_KINDS = new Set(['park', 'forest', 'wood', 'grass', 'nature_reserve', 'garden', 'golf_course', 'cemetery', 'playground', 'national_park']);

/** Buildings from this zoom (below it they are noise). */
export const BUILDING_MIN_ZOOM = 15;
/** Street names from this zoom ("street zoom"); place names from PLACE_LABEL_MIN_ZOOM to PLACE_LABEL_MAX_ZOOM (at street zoom the streets say where you are). */
export const STREET_LABEL_MIN_ZOOM = 14;
export const PLACE_LABEL_MIN_ZOOM = 9;
export const PLACE_LABEL_MAX_ZOOM = 13;

export const LABEL_STYLE = {
  fontFamily: 'sans-serif',
  street: { color: [60, 60, 70, 255] as RGBA, sizePx: 13 },
  place: { color: [40, 40, 50, 255] as RGBA, sizePx: 16 },
  /** The halo that keeps names readable over roads. */
  halo: [255, 255, 255, 230] as RGBA,
  haloWidth: 3,
};
