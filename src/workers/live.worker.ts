/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { createLiveEngine } from './live-engine';

// part 1 §4 "Live updates": the worker owns the live data; the main thread talks to it through Comlink.
// `expose(api, self)`: Comlink's default endpoint hangs under Vitest's worker shim.
Comlink.expose(createLiveEngine(), self);
