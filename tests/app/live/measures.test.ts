/**
 * The dashboard's own measures for the application bench (src/app/live/measures.ts): the drawn
 * positions' ages are the worker's histogram moved on by the time from its batch to the frame after
 * the diff was applied; the first full map is the frame after the number of assets last changed.
 */
import { describe, expect, it } from 'vitest';
import { createLiveMeasures } from '../../../src/app/live/measures';
import { createLiveStore } from '../../../src/app/live/store';
import { createFleetBuffers, encodeDiff, type LiveDiff } from '../../../src/domain/live-diff';
import { ageHistogram } from '../../../src/domain/live-timings';
import { STATUS_COUNT } from '../../../src/domain/live-diff';

function diffAt(time: number, total: number, ages?: Uint32Array): LiveDiff {
  const diff = encodeDiff(createFleetBuffers(4), [], [], {
    version: 1,
    time,
    reset: false,
    counts: new Array(STATUS_COUNT).fill(0),
    listCounts: new Array(STATUS_COUNT).fill(0),
    total,
    listLength: total,
    order: null,
    clusterVersion: 0,
  });
  if (ages) diff.ages = ages;
  return diff;
}

const frame = () => new Promise((resolve) => setTimeout(resolve, 20));

function fakeEngine() {
  const calls: boolean[] = [];
  return {
    calls,
    measure(on: boolean) {
      calls.push(on);
    },
    measuredBatches: () => [12.5, 30],
  };
}

describe('live measures', () => {
  it('ages of drawn positions: the batch’s ages plus the time from the batch to the drawn frame', async () => {
    const engine = fakeEngine();
    const measures = createLiveMeasures(createLiveStore(), engine);
    await measures.api.start();
    expect(engine.calls).toEqual([true]);
    expect((await measures.api.read()).staleness).toBeNull();
    // Positions 100 and 300 ms old at a batch that ran 400 ms before this frame.
    const batchAt = Date.now() - 400;
    measures.onDiff(diffAt(batchAt, 2, ageHistogram([batchAt - 100, batchAt - 300], 2, batchAt)));
    await frame();
    const report = await measures.api.read();
    expect(report.diffs).toBe(1);
    expect(report.batchMs).toEqual([12.5, 30]);
    expect(report.staleness!.positions).toBe(2);
    expect(report.staleness!.p50).toBeGreaterThanOrEqual(500);
    expect(report.staleness!.p50).toBeLessThan(600);
    expect(report.staleness!.p99).toBeGreaterThanOrEqual(700);
    expect(report.staleness!.p99).toBeLessThan(800);
    // Starting again starts afresh.
    await measures.api.start();
    expect((await measures.api.read()).staleness).toBeNull();
    await measures.api.stop();
    expect(engine.calls).toEqual([true, true, false]);
  });

  it('the first full map: the frame after the diff that last changed the number of assets', async () => {
    const measures = createLiveMeasures(createLiveStore(), fakeEngine());
    expect((await measures.api.read()).totalDrawnAt).toBeNull();
    measures.onDiff(diffAt(Date.now(), 500));
    await frame();
    const first = (await measures.api.read()).totalDrawnAt!;
    expect(first).toBeGreaterThan(0);
    measures.onDiff(diffAt(Date.now(), 1_000));
    await frame();
    const full = (await measures.api.read()).totalDrawnAt!;
    expect(full).toBeGreaterThan(first);
    // Diffs that move assets but keep their number leave it.
    measures.onDiff(diffAt(Date.now(), 1_000));
    await frame();
    expect((await measures.api.read()).totalDrawnAt).toBe(full);
  });
});
