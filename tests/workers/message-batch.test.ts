import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fromAreaWire, stationsFrom } from '../../src/domain/area';
import { liveMessageSchema, type LiveMessage, type LiveMessageInput } from '../../src/domain/live-message';
import type { LiveDiff } from '../../src/domain/live-diff';
import { LiveCore } from '../../src/workers/live-core';
import { applyLiveMessage, messageTime } from '../../src/workers/message-effects';
import { NOW, iso, parsedThing, stationArea, thing } from '../support/live-fixtures';

const ASSETS = 8;
const STATION = { lat: 30.25, lng: -97.75 };

function core(): LiveCore {
  const c = new LiveCore();
  c.setStations(stationsFrom([fromAreaWire(stationArea('st-1', STATION.lat, STATION.lng))]), NOW);
  c.loadThings(
    Array.from({ length: ASSETS }, (_, i) =>
      parsedThing(i, { heartbeat_datetime: i % 3 === 0 ? iso(NOW - 9 * 3_600_000) : iso(NOW - i * 60_000), enroute: i % 2 === 0 }),
    ),
    [],
    NOW,
  );
  c.flush(NOW);
  return c;
}

const id = (i: number) => `thing-${String(i).padStart(5, '0')}`;
const atStation = (near: boolean) => (near ? { lat: STATION.lat + 0.0002, lng: STATION.lng } : { lat: 30.3, lng: -97.6 });

/** Any message of part 1 §4 about one of a few assets (several per asset in one batch). */
const message: fc.Arbitrary<LiveMessageInput> = fc.oneof(
  fc
    .record({ i: fc.nat(ASSETS - 1), near: fc.boolean(), accuracy: fc.option(fc.integer({ min: 0, max: 120 })), t: fc.nat(900) })
    .map(({ i, near, accuracy, t }): LiveMessageInput => ({
      type: 'point',
      thing_id: id(i),
      ...atStation(near),
      accuracy,
      course: t % 360,
      speed: 3,
      timestamp: iso(NOW + t),
    })),
  fc.record({ i: fc.nat(ASSETS - 1), active: fc.boolean(), t: fc.nat(900) }).map(({ i, active, t }): LiveMessageInput => ({
    type: 'heartbeat',
    thing_id: id(i),
    is_active: active,
    run_id: active ? 'run' : null,
    timestamp: iso(NOW + t),
  })),
  fc.record({ i: fc.nat(ASSETS - 1), on: fc.boolean(), t: fc.nat(900) }).map(({ i, on, t }): LiveMessageInput => ({
    type: 'location',
    thing_id: id(i),
    location_id: on ? 'loc-1' : null,
    timestamp: iso(NOW + t),
  })),
  fc.record({ i: fc.nat(ASSETS - 1), on: fc.boolean(), c: fc.nat(2) }).map(({ i, on, c }): LiveMessageInput => ({
    type: 'closure',
    thing_id: id(i),
    closure_id: `closure-${c}`,
    is_active: on,
    timestamp: iso(NOW + 1),
  })),
  // thing: replaced, dropped (no position: removed) or added
  fc.record({ i: fc.nat(ASSETS + 1), gone: fc.boolean(), near: fc.boolean() }).map(({ i, gone, near }): LiveMessageInput => ({
    type: 'thing',
    thing: gone ? thing(i, { lat: null, lng: null }) : thing(i, { ...atStation(near), nickname: `Renamed ${i}` }),
  })),
);

/** What a batch leaves behind: every asset, the per-slot buffers, counts, list and clock. */
function state(c: LiveCore, diff: LiveDiff | null) {
  const { fleet } = c;
  const slots = Array.from({ length: fleet.highWater }, (_, slot) => slot);
  const changed = diff
    ? Array.from(diff.index, (slot, k) => [
        slot,
        diff.lngLat[2 * k],
        diff.lngLat[2 * k + 1],
        diff.status[k],
        diff.icon[k],
        diff.heading[k],
        diff.flags[k],
      ])
    : [];
  return {
    assets: slots.map((slot) => fleet.assets[slot] ?? null),
    flags: Array.from(fleet.buffers.flags.subarray(0, fleet.highWater)),
    status: Array.from(fleet.buffers.status.subarray(0, fleet.highWater)),
    clock: slots.map((slot) => fleet.clock.get(slot)),
    counts: Array.from(fleet.counts),
    listCounts: Array.from(fleet.listCounts),
    order: diff?.order ? Array.from(diff.order) : null,
    changed: changed.sort((a, b) => (a[0] as number) - (b[0] as number)),
    removed: diff ? Array.from(diff.removed).sort() : [],
  };
}

describe('a batch of socket messages (part 1 §4, every effect)', () => {
  it('deferring the refreshes to the end of the batch changes nothing: equal to refreshing after each message (property)', () => {
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 40 }), (inputs) => {
        const messages: LiveMessage[] = inputs.map((input) => liveMessageSchema.parse(input));
        const now = NOW + 1_000;
        const batched = core();
        for (const m of messages) batched.enqueue(m);
        const batchedDiff = batched.flush(now);

        const oneByOne = core();
        const targets = { fleet: oneByOne.fleet, events: oneByOne.events, closures: oneByOne.closures };
        for (const m of messages) applyLiveMessage(targets, m, now); // not deferring: refreshed at once
        const oneByOneDiff = oneByOne.flush(now);

        expect(state(batched, batchedDiff)).toEqual(state(oneByOne, oneByOneDiff));
      }),
      { numRuns: 150 },
    );
  });
});

describe('message timestamps', () => {
  it('read the server’s ISO form exactly as Date.parse does (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2200, 0, 1) }), (ms) => {
        const text = new Date(ms).toISOString();
        expect(messageTime(text)).toBe(Date.parse(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('take any other form the slow way, and an unreadable one as none', () => {
    expect(messageTime('2026-02-29T00:00:00.000Z')).toBe(Date.parse('2026-02-29T00:00:00.000Z'));
    expect(messageTime('2026-11-22T12:00:00Z')).toBe(Date.UTC(2026, 10, 22, 12));
    expect(messageTime('2026-11-22T13:00:00.000+01:00')).toBe(Date.UTC(2026, 10, 22, 12));
    expect(messageTime('2026-11-22T25:00:00.000Z')).toBeNull();
    expect(messageTime('not a time')).toBeNull();
  });
});
