/**
 * The standalone map's vector basemap (README "Basemap"): which source to draw
 * (GET /tiles/basemap.json), the demo network's tiles (GET /tiles/demo/{z}/{x}/{y}.mvt) and a
 * self-hosted PMTiles file (GET /tiles/region.pmtiles, with range requests). No sign-in: a basemap
 * holds no account data, and the sign-in page draws the map too.
 *
 * Answers for demo tiles: 200 with the MVT; 204 for a valid tile with no road in it (outside the
 * network: nothing to draw, the browser keeps the outlines below); 404 for an address outside the
 * served zooms or the tile pyramid.
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ServerConfig } from '../config';
import { createDemoTileSource, DEMO_MAX_ZOOM, DEMO_MIN_ZOOM, isServedTile, type DemoTileSource } from '../region/demo-tiles';
import { openPmtiles, parseRange, rangeStream, type PmtilesFile } from '../tiles/pmtiles-file';
import { errorAnswer, notFound } from '../core/errors';

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
const basemapAnswer = z.discriminatedUnion('kind', [
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
/** A range of the region file: its bytes, whole (200) or the range asked for (206). */
const pmtilesBytes = (description: string) => ({ description, content: { [PMTILES_CONTENT_TYPE]: { schema: bytes<Readable>() } } });

export async function tileRoutes(app: FastifyInstance, config: Pick<ServerConfig, 'basemapPmtiles'>): Promise<void> {
  let region: PmtilesFile | null = null;
  if (config.basemapPmtiles) {
    const opened = await openPmtiles(config.basemapPmtiles);
    // Reported once, at start; the map then draws the demo network instead (never blank).
    if ('error' in opened) app.log.warn(`BASEMAP_PMTILES: ${opened.error}; the map draws the demo road network instead`);
    else region = opened;
  }
  let demo: DemoTileSource | null = null;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/tiles/basemap.json',
    { schema: { summary: 'Which basemap the map draws: the region file or the demo network', response: { 200: basemapAnswer } } },
    async (_request, reply) => {
      const source: BasemapSource = region
        ? { kind: 'pmtiles', url: REGION_PMTILES_URL }
        : { kind: 'demo', tiles: DEMO_TILES_URL, minZoom: DEMO_MIN_ZOOM, maxZoom: DEMO_MAX_ZOOM };
      reply.header('cache-control', 'no-cache');
      return source;
    },
  );

  // The path's parts are read by the handler (an address it does not serve is a 404, never a 422): no params schema.
  api.get(
    '/tiles/demo/:z/:x/:tile',
    {
      schema: {
        summary: 'A tile of the demo road network ({y}.mvt)',
        response: {
          200: { description: 'The tile (Mapbox Vector Tile)', content: { [MVT_CONTENT_TYPE]: { schema: bytes<Buffer>() } } },
          204: z.undefined().meta({ description: 'A valid tile with no road in it: nothing to draw.' }),
          404: errorAnswer,
        },
      },
    },
    async (request, reply) => {
      const { z, x, tile } = request.params as { z: string; x: string; tile: string };
      const y = /^(\d+)\.mvt$/.exec(tile)?.[1];
      const [zoom, column, row] = [z, x, y ?? ''].map((part) => (/^\d+$/.test(part) ? Number(part) : NaN)) as [number, number, number];
      if (!isServedTile(zoom, column, row)) throw notFound('Tile');
      demo ??= createDemoTileSource();
      const bytes = demo.tile(zoom, column, row);
      reply.header('cache-control', TILE_CACHE);
      if (!bytes) return reply.code(204).send();
      return reply.header('content-type', MVT_CONTENT_TYPE).send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  );

  api.get(
    '/tiles/region.pmtiles',
    {
      schema: {
        summary: 'The region basemap file (PMTiles), with range requests',
        response: {
          200: pmtilesBytes('The whole file'),
          206: pmtilesBytes('The range asked for (Content-Range)'),
          404: errorAnswer,
          416: z.undefined().meta({ description: 'A range outside the file (Content-Range: bytes */size).' }),
        },
      },
    },
    async (request, reply) => {
      if (!region) throw notFound('Basemap file');
      reply
        .header('accept-ranges', 'bytes')
        .header('etag', region.etag)
        .header('cache-control', PMTILES_CACHE)
        .header('content-type', PMTILES_CONTENT_TYPE);
      const range = parseRange(request.headers.range, region.size);
      if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${region.size}`).send(undefined);
      const bytes = range ?? { start: 0, end: region.size - 1 };
      if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${region.size}`);
      reply.header('content-length', String(bytes.end - bytes.start + 1));
      return reply.send(rangeStream(region, bytes));
    },
  );
}
