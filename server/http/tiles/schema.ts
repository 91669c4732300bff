import type { Readable } from 'node:stream';
import { z } from 'zod';

/**
 * The basemap calls' constants and answers (docs/map.md "Basemap"): the content types, the cache
 * rules, the URLs the browser reads, and the answers (a source to draw, a tile, the region file's bytes).
 */

export const MVT_CONTENT_TYPE = 'application/vnd.mapbox-vector-tile';
export const PMTILES_CONTENT_TYPE = 'application/vnd.pmtiles';
export const DEMO_TILES_URL = '/tiles/demo/{z}/{x}/{y}.mvt';
export const REGION_PMTILES_URL = '/tiles/region.pmtiles';
/** Demo tiles change only with the seed's code: a day, then revalidated by a new download. */
export const TILE_CACHE = 'public, max-age=86400';
/** The region file may be replaced by the operator: kept, but revalidated (its ETag) on every use. */
export const PMTILES_CACHE = 'public, max-age=0, must-revalidate';

/** What the browser draws: the region file when one is configured and readable, else the demo network. */
export type BasemapSource = { kind: 'pmtiles'; url: string } | { kind: 'demo'; tiles: string; minZoom: number; maxZoom: number };

/** GET /tiles/basemap.json: the BasemapSource above. */
export const basemapAnswer = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('pmtiles'), url: z.string().meta({ description: 'The region PMTiles file (GET /tiles/region.pmtiles).' }) }),
  z.object({
    kind: z.literal('demo'),
    tiles: z.string().meta({ description: 'The demo tiles URL template, {z}/{x}/{y}.' }),
    minZoom: z.number().int(),
    maxZoom: z.number().int(),
  }),
]);
/** Bytes sent as a Buffer or a stream, which bypass the serializer: documented as binary. */
const bytes = <T>() => z.custom<T>().meta({ type: 'string', format: 'binary' });
/** The demo tile (200): its bytes. */
export const tileBytes = () => ({
  description: 'The tile (Mapbox Vector Tile)',
  content: { [MVT_CONTENT_TYPE]: { schema: bytes<Buffer>() } },
});
/** A range of the region file: its bytes, whole (200) or the range asked for (206). */
export const pmtilesBytes = (description: string) => ({ description, content: { [PMTILES_CONTENT_TYPE]: { schema: bytes<Readable>() } } });

/**
 * The numbers of a demo tile's path ({z}, {x}, {y}.mvt); a part that is not a whole number is NaN
 * (no served tile: 404, never 422).
 */
export function tileAddress(params: { z: string; x: string; tile: string }): [number, number, number] {
  const y = /^(\d+)\.mvt$/.exec(params.tile)?.[1];
  return [params.z, params.x, y ?? ''].map((part) => (/^\d+$/.test(part) ? Number(part) : NaN)) as [number, number, number];
}
