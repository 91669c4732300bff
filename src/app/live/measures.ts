/**
 * What a running dashboard measures about itself for the application bench (bench/README.md "Application
 * bench"), read through `window.lightbarMeasure`:
 * - when the map last drew a change in the number of assets (the first full map, once loaded);
 * - while a measurement is on: the worker's batch durations, and how far behind the stream the
 *   drawn positions are: each diff's age histogram (src/domain/live-timings.ts) moved on by the time
 *   from the worker's batch to the animation frame after the diff was applied, the frame that draws it.
 * Per diff it does a fixed amount of work (one frame callback, one pass over the buckets), never per asset.
 */
import type { LiveDiff } from '../../domain/live-diff';
import { addShifted, createAgeHistogram, histogramCount, histogramPercentile } from '../../domain/live-timings';
import type { LiveStore } from './store';

export interface LiveMeasureReport {
  phase: LiveStore['phase'];
  /** Assets held and listed. */
  total: number;
  listLength: number;
  /** Pages of the initial load (part 1 §7). */
  pages: { loaded: number; total: number };
  /** `performance.now()` of the frame after the diff that last changed the number of assets; null before any. */
  totalDrawnAt: number | null;
  /** Diffs applied since the measurement started. */
  diffs: number;
  /** The worker's batch durations (ms) since the measurement started. */
  batchMs: number[];
  /** Ages of the drawn positions (ms) since the measurement started; null before any. */
  staleness: { p50: number; p99: number; positions: number } | null;
}

export interface LiveMeasures {
  /** Starts a measurement (again: afresh). */
  start(): Promise<void>;
  /** Ends it (the worker stops timing its batches and aging positions). */
  stop(): Promise<void>;
  read(): Promise<LiveMeasureReport>;
}

declare global {
  interface Window {
    /** The application bench's reading of the dashboard (bench/README.md "Application bench"). */
    lightbarMeasure?: LiveMeasures;
  }
}

interface MeasuredEngine {
  measure(on: boolean): unknown;
  measuredBatches(): number[] | Promise<number[]>;
}

const nextFrame: (callback: () => void) => void =
  typeof requestAnimationFrame === 'function' ? (callback) => requestAnimationFrame(callback) : (callback) => setTimeout(callback, 0);

export function createLiveMeasures(store: LiveStore, engine: MeasuredEngine) {
  let staleness = createAgeHistogram();
  let diffs = 0;
  let totalDrawnAt: number | null = null;
  let lastTotal = -1;

  return {
    /** Called by the bridge after each diff is applied to the store. */
    onDiff(diff: LiveDiff): void {
      diffs += 1;
      const totalChanged = diff.total !== lastTotal;
      lastTotal = diff.total;
      const ages = diff.ages;
      if (!totalChanged && !ages) return;
      nextFrame(() => {
        if (totalChanged) totalDrawnAt = performance.now();
        // The worker's batch time and this frame's, both wall clocks of this machine.
        if (ages) addShifted(staleness, ages, Date.now() - diff.time);
      });
    },
    api: {
      async start() {
        staleness = createAgeHistogram();
        diffs = 0;
        await engine.measure(true);
      },
      async stop() {
        await engine.measure(false);
      },
      async read(): Promise<LiveMeasureReport> {
        const positions = histogramCount(staleness);
        return {
          phase: store.phase,
          total: store.total,
          listLength: store.listLength,
          pages: { loaded: store.progress.loaded, total: store.progress.total },
          totalDrawnAt,
          diffs,
          batchMs: await engine.measuredBatches(),
          staleness:
            positions === 0 ? null : { p50: histogramPercentile(staleness, 50)!, p99: histogramPercentile(staleness, 99)!, positions },
        };
      },
    } satisfies LiveMeasures,
  };
}
