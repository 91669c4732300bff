/**
 * The availability and density answers across the real worker boundary: the
 * worker module behind Comlink under @vitest/web-worker, the real bridge on this side, a fake fetch
 * answering the REST calls and a real `ws` socket server.
 */
import '@vitest/web-worker';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import WS from 'ws';
import { createLiveBridge, type LiveBridge } from '../../src/app/live/bridge';
import { distanceM } from '../../src/domain/geometry';
import { rowLatitudes } from '../../src/workers/availability';
import { FakeApi, FakeCable, NOW, ORG, TOKEN, thing } from '../support/live-fixtures';
import { until } from '../support/until';

let api: FakeApi;
let cable: FakeCable;
let bridge: LiveBridge | null = null;
const originalFetch = globalThis.fetch;

beforeAll(() => {
  (globalThis as { WebSocket?: unknown }).WebSocket = WS;
});
afterAll(() => {
  globalThis.fetch = originalFetch;
});
beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  api = new FakeApi();
  globalThis.fetch = api.fetch as typeof fetch;
  cable = new FakeCable();
  await cable.listen();
});
afterEach(async () => {
  vi.useRealTimers();
  await bridge?.dispose();
  bridge = null;
  await cable.close();
});

const BBOX: [number, number, number, number] = [-97.9, 30.1, -97.5, 30.4];

describe('availability view through the live worker', () => {
  it('answers the gaps grid for the visible area with the radius preference, and the listed positions for density', async () => {
    // Two standby units (available), one enroute (active: not available), one out of service.
    api.setThings([
      thing(1, { lat: 30.2, lng: -97.8 }),
      thing(2, { lat: 30.3, lng: -97.6 }),
      thing(3, { lat: 30.15, lng: -97.55, enroute: true }),
      thing(4, { lat: 30.35, lng: -97.85, in_service: false }),
    ]);
    bridge = createLiveBridge({ signals: null, storage: null });
    await bridge.start({ apiBase: 'http://api.test', socketUrl: cable.url, token: TOKEN, organizationId: ORG });
    const b = bridge;
    await until(() => b.store.phase === 'live' && b.store.total === 4, 'the load', 8_000);
    await b.setPreferences({ availabilityRadiusM: 4_000 });

    const answer = await b.availability(BBOX);
    expect(answer.mask).toBeInstanceOf(Uint8Array);
    expect(answer.radiusM).toBe(4_000);
    expect(answer.units).toBe(2);
    expect(answer.mask).toHaveLength(answer.columns * answer.rows);
    // Every cell checked on this side against the two available units.
    const lats = rowLatitudes(BBOX[1], BBOX[3], answer.rows);
    const units = [
      { lat: 30.2, lng: -97.8 },
      { lat: 30.3, lng: -97.6 },
    ];
    let covered = 0;
    for (let row = 0; row < answer.rows; row += 1) {
      for (let column = 0; column < answer.columns; column += 1) {
        const centre = { lat: lats[row]!, lng: BBOX[0] + ((column + 0.5) / answer.columns) * (BBOX[2] - BBOX[0]) };
        const inside = units.some((u) => distanceM(centre, u) <= 4_000);
        if (inside) covered += 1;
        expect(answer.mask[row * answer.columns + column]).toBe(inside ? 0 : 1);
      }
    }
    expect(answer.coveredShare).toBeCloseTo(covered / answer.mask.length, 12);
    expect(answer.coveredShare).toBeGreaterThan(0);
    expect(answer.coveredShare).toBeLessThan(1);

    // A larger radius covers more.
    await b.setPreferences({ availabilityRadiusM: 12_000 });
    expect((await b.availability(BBOX)).coveredShare).toBeGreaterThan(answer.coveredShare);

    // Density: the listed assets' positions (all four pass the default filter; availability took only the standby two).
    const { lngLat } = await b.listedPositions();
    expect(lngLat).toBeInstanceOf(Float64Array);
    expect(lngLat).toHaveLength(2 * b.store.listLength);
    const pairs = Array.from({ length: lngLat.length / 2 }, (_, i) => `${lngLat[2 * i]},${lngLat[2 * i + 1]}`).sort();
    expect(pairs).toEqual(['-97.55,30.15', '-97.6,30.3', '-97.8,30.2', '-97.85,30.35']);
  });
});
