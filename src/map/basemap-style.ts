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
