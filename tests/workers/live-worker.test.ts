import '@vitest/web-worker';
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { ASSET_STATUS } from '../../src/domain/asset-status';
import { HOUR_MS, SOCKET_PROTOCOL } from '../../src/domain/constants';
import type { CountableAsset, LiveEngine } from '../../src/workers/live-engine';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

function asset(overrides: Partial<CountableAsset>): CountableAsset {
  return { heartbeatTime: NOW, enroute: false, street: null, isOnIncident: false, activeClosures: [], inService: true, ...overrides };
}

describe('live worker over Comlink (@vitest/web-worker)', () => {
  let worker: Worker | undefined;
  afterEach(() => worker?.terminate());

  function connect(): Comlink.Remote<LiveEngine> {
    worker = new Worker(new URL('../../src/workers/live.worker.ts', import.meta.url), { type: 'module' });
    return Comlink.wrap<LiveEngine>(worker);
  }

  it('answers from inside the worker', async () => {
    const engine = connect();
    await expect(engine.info()).resolves.toEqual({ protocol: SOCKET_PROTOCOL, batchMs: 1000 });
  });

  it('part1 §4 runs the domain status rule in the worker and returns counts as a typed array', async () => {
    const engine = connect();
    const counts = await engine.countStatuses(
      [
        asset({ isOnIncident: true }),
        asset({ enroute: true }),
        asset({ enroute: true }),
        asset({}),
        asset({ street: 'Main St' }),
        asset({ heartbeatTime: NOW - 8 * HOUR_MS }),
        asset({ heartbeatTime: NOW - 96 * HOUR_MS }),
        asset({ heartbeatTime: null }),
        asset({ inService: false }),
      ],
      NOW,
    );
    expect(counts).toBeInstanceOf(Int32Array);
    expect(counts[ASSET_STATUS.location]).toBe(1);
    expect(counts[ASSET_STATUS.active]).toBe(2);
    expect(counts[ASSET_STATUS.standby]).toBe(1);
    expect(counts[ASSET_STATUS.stationary]).toBe(1);
    expect(counts[ASSET_STATUS.pending]).toBe(1);
    expect(counts[ASSET_STATUS.offline]).toBe(2);
    expect(counts[ASSET_STATUS.oos]).toBe(1);
  });
});
