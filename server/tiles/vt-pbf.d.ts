/** vt-pbf ships no types: the one call the demo tiles use (geojson-vt tiles → MVT bytes). */
declare module 'vt-pbf' {
  import type { LegacyTile } from 'geojson-vt';
  export function fromGeojsonVt(layers: Record<string, LegacyTile>, options?: { version?: number; extent?: number }): Uint8Array;
}
