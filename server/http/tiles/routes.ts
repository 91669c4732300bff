/**
 * The standalone map's vector basemap (docs/map.md "Basemap"): which source to draw
 * (GET /tiles/basemap.json), the demo network's tiles (GET /tiles/demo/{z}/{x}/{y}.mvt) and a
 * self-hosted PMTiles file (GET /tiles/region.pmtiles, with range requests). No sign-in: a basemap
 * holds no account data, and the sign-in page draws the map too.
 *
 * Answers for demo tiles: 200 with the MVT; 204 for a valid tile with no road in it (outside the
 * network: nothing to draw, the browser keeps the outlines below); 404 for an address outside the
 * served zooms or the tile pyramid.
 *
 * No repository.ts: the basemap reads no database (the demo tiles are made from the seed's
 * network, the region file is read from disk).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ServerConfig } from '../../config';
import { createDemoTileSource, DEMO_MAX_ZOOM, DEMO_MIN_ZOOM, isServedTile, type DemoTileSource } from '../../region/demo-tiles';
import { openPmtiles, parseRange, rangeStream, type PmtilesFile } from '../../tiles/pmtiles-file';
import { errorAnswer, notFound } from '../../core/errors';
import {
  basemapAnswer,
  type BasemapSource,
  DEMO_TILES_URL,
  MVT_CONTENT_TYPE,
  PMTILES_CACHE,
  PMTILES_CONTENT_TYPE,
  pmtilesBytes,
  REGION_PMTILES_URL,
  TILE_CACHE,
  tileAddress,
  tileBytes,
} from './schema';

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
          200: tileBytes(),
          204: z.undefined().meta({ description: 'A valid tile with no road in it: nothing to draw.' }),
          404: errorAnswer,
        },
      },
    },
    async (request, reply) => {
      const [zoom, column, row] = tileAddress(request.params as { z: string; x: string; tile: string });
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
