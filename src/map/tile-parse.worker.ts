/// <reference lib="webworker" />
import { parseMvtTile, type TileParseReply, type TileParseRequest } from './tile-parse';

// The vector basemap's tiles parsed beside the page (src/map/tile-parse.ts `TileParser`): each
// request answered with its id, the features (GeoJSON, as the basemap's layers draw them) or the
// error; the worker lives as long as the page's basemap.
self.onmessage = async (event: MessageEvent<TileParseRequest>) => {
  const { id, bytes, options } = event.data;
  try {
    self.postMessage({ id, ok: true, features: await parseMvtTile(bytes, options) } satisfies TileParseReply);
  } catch (error) {
    self.postMessage({ id, ok: false, error: error instanceof Error ? error.message : String(error) } satisfies TileParseReply);
  }
};
