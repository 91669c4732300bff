/// <reference lib="webworker" />
/**
 * The live worker of the map bench page: the real engine (src/workers/live-engine.ts) over the
 * synthetic network of synthetic-source.ts. The fleet size and the rate come in the worker's name.
 */
import * as Comlink from 'comlink';
import { createLiveEngine } from '../../src/workers/live-engine';
import { streamed, syntheticFetch, syntheticSocket, type SyntheticOptions } from './synthetic-source';

const options = JSON.parse(self.name) as SyntheticOptions;
const engine = createLiveEngine({
  fetch: syntheticFetch(options, () => Date.now()),
  openSocket: syntheticSocket(options),
});
// The engine's API plus the stream's counter (the bench reads the rate achieved).
Comlink.expose({ ...engine, streamedMessages: () => streamed.messages }, self);
