/// <reference lib="webworker" />
import { basemapTransferables, fetchBasemap, type BasemapUrls, type BasemapWorkerReply } from './basemap-data';

// The offline basemap built beside the page (src/map/basemap.ts `buildBasemap`): one request, one
// answer, the land mesh's buffers moved with it; the page ends the worker once it has answered.
self.onmessage = async (event: MessageEvent<BasemapUrls>) => {
  try {
    const data = await fetchBasemap(event.data);
    self.postMessage({ ok: true, data } satisfies BasemapWorkerReply, { transfer: basemapTransferables(data) });
  } catch (error) {
    self.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) } satisfies BasemapWorkerReply);
  }
};
