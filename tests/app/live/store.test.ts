/**
 * The main-thread live store (src/app/live/store.ts): a diff bumps the version, writes the changed
 * slots into the typed arrays held under ref(), hands deck.gl a new data object over the same
 * buffers, and never makes a proxy per asset.
 */
import { describe, expect, it } from 'vitest';
import { snapshot, subscribe } from 'valtio';
import { ASSET_STATUS } from '../../../src/domain/asset-status';
import { createFleetBuffers, encodeDiff, FLAG_LISTED, FLAG_PRESENT, iconIndex, type LiveDiff } from '../../../src/domain/live-diff';
import {
  applyDiffToStore,
  applyStatusToStore,
  createLiveStore,
  DEFAULT_PREFERENCES,
  loadPreferences,
  PREFERENCES_STORAGE_KEY,
  savePreferences,
  withShowOffline,
} from '../../../src/app/live/store';

function diffOf(version: number, slots: Record<number, [number, number, number]>, extra: Partial<LiveDiff> = {}): LiveDiff {
  const worker = createFleetBuffers(16);
  for (const [slot, [lng, lat, status]] of Object.entries(slots)) {
    const s = Number(slot);
    worker.lngLat[2 * s] = lng;
    worker.lngLat[2 * s + 1] = lat;
    worker.status[s] = status;
    worker.icon[s] = iconIndex(0, status as 0, true);
    worker.heading[s] = 90;
    worker.flags[s] = FLAG_PRESENT | FLAG_LISTED;
  }
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const [, , status] of Object.values(slots)) counts[status]! += 1;
  const diff = encodeDiff(worker, Object.keys(slots).map(Number), [], {
    version,
    time: version * 1000,
    reset: false,
    counts,
    listCounts: counts,
    total: Object.keys(slots).length,
    listLength: Object.keys(slots).length,
    order: Object.keys(slots).map(Number),
    clusterVersion: version,
  });
  return { ...diff, ...extra };
}

describe('main-thread store', () => {
  it('applies a diff: version, counts, order, buffers under ref and a new deck.gl data object', () => {
    const store = createLiveStore();
    const before = store.data;
    applyDiffToStore(store, diffOf(1, { 3: [-97.7, 30.2, ASSET_STATUS.active], 9: [-97.8, 30.3, ASSET_STATUS.standby] }));
    expect(store.version).toBe(1);
    expect(store.counts[ASSET_STATUS.active]).toBe(1);
    expect(store.total).toBe(2);
    expect(Array.from(store.order)).toEqual([3, 9]);
    expect(store.buffers.capacity).toBe(16);
    expect(store.buffers.lngLat[6]).toBe(-97.7);
    expect(store.data).not.toBe(before);
    expect(store.data.attributes.getPosition.value).toBe(store.buffers.lngLat);
    expect(store.data.length).toBe(16);
    // typed arrays are not proxied: the snapshot hands out the very same buffers
    const snap = snapshot(store);
    expect(snap.buffers.lngLat).toBe(store.buffers.lngLat);
    expect(snap.order).toBe(store.order);
  });

  it('a second diff writes into the same buffers and keeps the old order when none is sent', () => {
    const store = createLiveStore();
    applyDiffToStore(store, diffOf(1, { 3: [-97.7, 30.2, ASSET_STATUS.active] }));
    const buffers = store.buffers.lngLat;
    const order = store.order;
    const data = store.data;
    applyDiffToStore(store, diffOf(2, { 3: [-97.6, 30.25, ASSET_STATUS.active] }, { order: null }));
    expect(store.buffers.lngLat).toBe(buffers);
    expect(store.buffers.lngLat[6]).toBe(-97.6);
    expect(store.order).toBe(order);
    expect(store.data).not.toBe(data);
    expect(store.data.version).toBe(2);
  });

  it('subscribers hear of each diff (the version moves even though ref() contents are invisible to Valtio)', async () => {
    const store = createLiveStore();
    let notified = 0;
    const unsubscribe = subscribe(store, () => (notified += 1));
    applyDiffToStore(store, diffOf(1, { 0: [1, 1, ASSET_STATUS.standby] }));
    await Promise.resolve();
    expect(notified).toBe(1);
    applyDiffToStore(store, diffOf(2, { 0: [2, 2, ASSET_STATUS.standby] }, { order: null }));
    await Promise.resolve();
    expect(notified).toBe(2);
    unsubscribe();
  });

  it('a reset diff empties the buffers and the list', () => {
    const store = createLiveStore();
    applyDiffToStore(store, diffOf(1, { 0: [1, 1, ASSET_STATUS.standby] }));
    applyDiffToStore(store, { ...diffOf(2, {}), reset: true, order: null, total: 0, listLength: 0 });
    expect(store.buffers.flags[0]).toBe(0);
    expect(store.order.length).toBe(0);
    expect(store.total).toBe(0);
  });

  it('the selected asset’s details arrive with the diffs that change them', () => {
    const store = createLiveStore();
    store.selection.id = 'a';
    applyDiffToStore(store, diffOf(1, {}, { selected: { id: 'a' } as never }));
    expect(store.selection.asset?.id).toBe('a');
    applyDiffToStore(store, diffOf(2, {}));
    expect(store.selection.asset?.id).toBe('a');
    // Details of an earlier selection, made before the worker saw the new one, are not shown.
    applyDiffToStore(store, diffOf(3, {}, { selected: { id: 'b' } as never }));
    expect(store.selection.asset?.id).toBe('a');
    applyDiffToStore(store, diffOf(4, {}, { selected: null }));
    expect(store.selection.asset).toBeNull();
  });

  it('status reports set progress and connectivity', () => {
    const store = createLiveStore();
    expect(store.responderMix).toBe('all');
    applyStatusToStore(store, {
      organizationId: 'org',
      phase: 'loading',
      progress: { loaded: 2, total: 5 },
      socket: { state: 'waiting', attempt: 3, delayMs: 4000 },
      polling: true,
      largeOrg: false,
      online: true,
      focused: false,
      unauthorized: false,
      error: null,
      lastRefreshAt: null,
      events: { version: 4, active: 1, recent: 2 },
      closuresVersion: 1,
      stations: 3,
      responderMix: 'some',
      ownership: { owned: 4, managed: 1, relations: true },
    });
    expect(store.progress).toEqual({ loaded: 2, total: 5, done: false });
    expect(store.connectivity).toMatchObject({ socket: 'waiting', socketAttempt: 3, polling: true, focused: false });
    expect(store.events).toMatchObject({ active: 1, recent: 2 });
    // part 1 §2, §4: the worker's responder mix (an empty store reads 'all').
    expect(store.responderMix).toBe('some');
    // part 1 §3: the worker's ownership counts (the Owned / Managed toggles).
    expect(store.ownership).toEqual({ owned: 4, managed: 1, relations: true });
  });
});

describe('part1 §2 map preferences in local storage, §4 show offline', () => {
  it('defaults: group view on, density view off, show offline on', () => {
    expect(loadPreferences(null)).toEqual(DEFAULT_PREFERENCES);
    expect(DEFAULT_PREFERENCES).toMatchObject({ groupView: true, densityView: false, showOffline: true });
  });

  it('keeps and reads them back; unreadable values fall back to the defaults', () => {
    const memory = new Map<string, string>();
    const storage = { getItem: (k: string) => memory.get(k) ?? null, setItem: (k: string, v: string) => void memory.set(k, v) };
    savePreferences(storage, { ...DEFAULT_PREFERENCES, densityView: true });
    expect(loadPreferences(storage).densityView).toBe(true);
    memory.set(PREFERENCES_STORAGE_KEY, '{not json');
    expect(loadPreferences(storage)).toEqual(DEFAULT_PREFERENCES);
  });

  it('show offline adds or removes offline from the status filter', () => {
    expect(withShowOffline([0, 1, 2, 3, 4], true)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(withShowOffline([0, 1, 2, 3, 4, 5], false)).toEqual([0, 1, 2, 3, 4]);
    expect(createLiveStore({ ...DEFAULT_PREFERENCES, showOffline: false }).filters.statuses).not.toContain(ASSET_STATUS.offline);
  });
});
