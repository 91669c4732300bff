import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACTIVE_WINDOW_MS, HOUR_MS, PENDING_WINDOW_MS, SECOND_MS, STALE_AFTER_MS, STANDBY_WINDOW_MS } from '../../src/domain/constants';
import {
  ASSET_STATUS,
  ASSET_STATUSES,
  ASSET_STATUS_NAMES,
  CONNECTION_GROUPS,
  ONLINE_STATUSES,
  SERVER_STATUSES,
  applyStationCheck,
  computeAssetStatus,
  connectionGroup,
  displayStatus,
  eventsSectionLabel,
  isAssetStatus,
  isOnline,
  isStale,
  nextStatusDeadline,
  responderMix,
  serverStatusSchema,
  statusFromServer,
  statusLabel,
  statusToServer,
  type AssetStatus,
  type AssetStatusFacts,
  type ResponderMix,
  type ServerStatus,
} from '../../src/domain/asset-status';

const NOW = Date.UTC(2024, 5, 1, 12, 0, 0);
const { location, active, standby, stationary, pending, offline, oos } = ASSET_STATUS;

function facts(overrides: Partial<AssetStatusFacts> & { age?: number | null } = {}): AssetStatusFacts {
  const { age = 0, ...rest } = overrides;
  return {
    heartbeatTime: age === null ? null : NOW - age,
    enroute: false,
    street: null,
    isOnIncident: false,
    activeClosures: [],
    ...rest,
  };
}

describe('part1 §4 asset status codes', () => {
  it.each([
    ['location', 0],
    ['active', 1],
    ['standby', 2],
    ['stationary', 3],
    ['pending', 4],
    ['offline', 5],
    ['oos', 6],
  ] as const)('%s is %i', (name, code) => {
    expect(ASSET_STATUS[name]).toBe(code);
    expect(ASSET_STATUS_NAMES[code]).toBe(name);
  });

  it('lists every code in numeric order', () => {
    expect(ASSET_STATUSES).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it.each([
    [0, true],
    [6, true],
    [7, false],
    [-1, false],
    [1.5, false],
    ['1', false],
  ])('isAssetStatus(%j) is %s', (value, expected) => {
    expect(isAssetStatus(value)).toBe(expected);
  });
});

describe('part1 §4 server status strings', () => {
  const table: [ServerStatus, AssetStatus][] = [
    ['active_location', location],
    ['active', active],
    ['standby', standby],
    ['stationary', stationary],
    ['pending', pending],
    ['offline', offline],
  ];

  it('has the six server strings', () => {
    expect(SERVER_STATUSES).toEqual(['active_location', 'active', 'standby', 'stationary', 'pending', 'offline']);
  });

  it.each(table)('%s ⇄ %i', (server, code) => {
    expect(statusFromServer(server)).toBe(code);
    expect(statusToServer(code)).toBe(server);
  });

  it('oos has no server string', () => {
    expect(statusToServer(oos)).toBeNull();
  });

  it('the schema rejects an unknown string', () => {
    expect(serverStatusSchema.safeParse('location').success).toBe(false);
    expect(serverStatusSchema.parse('active_location')).toBe('active_location');
  });
});

describe('part1 §4 asset status (computed fallback)', () => {
  const h = HOUR_MS;
  const rows: [string, AssetStatusFacts, AssetStatus][] = [
    ['active closures win over an incident', facts({ activeClosures: [{}], isOnIncident: true }), active],
    ['active closures with no heartbeat', facts({ activeClosures: [{}], age: null }), active],
    ['active closures with a 100 h old heartbeat', facts({ activeClosures: [{}], age: 100 * h }), active],
    ['on an incident with no heartbeat', facts({ isOnIncident: true, age: null }), location],
    ['on an incident while enroute', facts({ isOnIncident: true, enroute: true }), location],
    ['on an incident, silent 100 h', facts({ isOnIncident: true, age: 100 * h }), location],
    ['no heartbeat', facts({ age: null }), offline],
    ['no heartbeat, enroute with a street', facts({ age: null, enroute: true, street: 'Main St' }), offline],
    ['enroute, fresh', facts({ enroute: true }), active],
    ['enroute, 2 h less 1 ms', facts({ enroute: true, age: 2 * h - 1 }), active],
    ['enroute, exactly 2 h: past the active window', facts({ enroute: true, age: 2 * h }), standby],
    ['enroute, exactly 2 h, with a street', facts({ enroute: true, age: 2 * h, street: 'Main St' }), stationary],
    ['enroute, 3 h (README: not pending)', facts({ enroute: true, age: 3 * h }), standby],
    ['enroute, exactly 8 h', facts({ enroute: true, age: 8 * h }), pending],
    ['enroute, exactly 96 h', facts({ enroute: true, age: 96 * h }), offline],
    ['enroute with a street, fresh', facts({ enroute: true, street: 'Main St' }), active],
    ['quiet, fresh', facts(), standby],
    ['quiet, fresh, with a street', facts({ street: 'Main St' }), stationary],
    ['quiet, empty street', facts({ street: '' }), standby],
    ['quiet, 1 h 59 min (no active window without enroute)', facts({ age: 2 * h - 1 }), standby],
    ['quiet, 8 h less 1 ms', facts({ age: 8 * h - 1 }), standby],
    ['quiet with a street, 8 h less 1 ms', facts({ age: 8 * h - 1, street: 'Main St' }), stationary],
    ['quiet, exactly 8 h', facts({ age: 8 * h }), pending],
    ['quiet with a street, exactly 8 h', facts({ age: 8 * h, street: 'Main St' }), pending],
    ['quiet, 96 h less 1 ms', facts({ age: 96 * h - 1 }), pending],
    ['quiet, exactly 96 h', facts({ age: 96 * h }), offline],
    ['quiet, a year', facts({ age: 365 * 24 * h }), offline],
    ['a heartbeat from the future (clock skew), quiet', facts({ age: -5 * SECOND_MS }), standby],
    ['a heartbeat from the future, enroute', facts({ age: -5 * SECOND_MS, enroute: true }), active],
  ];

  it.each(rows)('%s', (_name, input, expected) => {
    expect(computeAssetStatus(input, NOW)).toBe(expected);
  });

  it('uses the README windows: 2 h, 8 h, 96 h', () => {
    expect([ACTIVE_WINDOW_MS, STANDBY_WINDOW_MS, PENDING_WINDOW_MS]).toEqual([2 * h, 8 * h, 96 * h]);
  });

  it('never computes oos', () => {
    fc.assert(
      fc.property(arbFacts(), fc.integer({ min: -1e12, max: 1e12 }), (f, dt) => {
        expect(computeAssetStatus(f, NOW + dt)).not.toBe(oos);
      }),
    );
  });
});

describe('part1 §4 displayStatus: out of service wins', () => {
  it.each([
    [active, true, active],
    [active, false, oos],
    [offline, false, oos],
    [standby, true, standby],
  ] as const)('%i in service %s → %i', (status, inService, expected) => {
    expect(displayStatus(status, inService)).toBe(expected);
  });
});

describe('part1 §4, §9 stale (30 s)', () => {
  it.each([
    ['no heartbeat', null, true],
    ['fresh', NOW, false],
    ['30 s less 1 ms', NOW - 30 * SECOND_MS + 1, false],
    ['exactly 30 s', NOW - 30 * SECOND_MS, true],
    ['31 s', NOW - 31 * SECOND_MS, true],
    ['from the future', NOW + 1000, false],
  ] as const)('%s', (_name, heartbeat, expected) => {
    expect(isStale(heartbeat, NOW)).toBe(expected);
  });

  it('the threshold is 30 s', () => {
    expect(STALE_AFTER_MS).toBe(30_000);
  });
});

function arbFacts(): fc.Arbitrary<AssetStatusFacts> {
  return fc.record({
    heartbeatTime: fc.option(fc.integer({ min: NOW - 200 * HOUR_MS, max: NOW + HOUR_MS }), { nil: null }),
    enroute: fc.boolean(),
    street: fc.constantFrom(null, '', 'Main St'),
    isOnIncident: fc.boolean(),
    activeClosures: fc.constantFrom([], [{ id: 'c' }]),
  });
}

describe('nextStatusDeadline (the worker clock)', () => {
  const h = HOUR_MS;
  const rows: [string, AssetStatusFacts, number | null][] = [
    ['no heartbeat: nothing moves', facts({ age: null }), null],
    ['no heartbeat, enroute: nothing moves', facts({ age: null, enroute: true }), null],
    ['fresh quiet asset: goes stale first', facts({ age: 0 }), NOW + STALE_AFTER_MS],
    ['10 s old: stale at 30 s', facts({ age: 10 * SECOND_MS }), NOW + 20 * SECOND_MS],
    ['exactly 30 s old quiet: pending at 8 h', facts({ age: 30 * SECOND_MS }), NOW - 30 * SECOND_MS + 8 * h],
    ['1 h old enroute: standby at 2 h', facts({ age: h, enroute: true }), NOW + h],
    ['1 h old quiet: pending at 8 h', facts({ age: h }), NOW + 7 * h],
    ['exactly 2 h old enroute: pending at 8 h', facts({ age: 2 * h, enroute: true }), NOW + 6 * h],
    ['exactly 8 h old: offline at 96 h', facts({ age: 8 * h }), NOW + 88 * h],
    ['96 h less 1 ms: offline in 1 ms', facts({ age: 96 * h - 1 }), NOW + 1],
    ['exactly 96 h: nothing more', facts({ age: 96 * h }), null],
    ['on an incident, fresh: only staleness', facts({ isOnIncident: true }), NOW + STALE_AFTER_MS],
    ['on an incident, 1 h old: nothing', facts({ isOnIncident: true, age: h }), null],
    ['active closures, 1 h old enroute: nothing', facts({ activeClosures: [{}], enroute: true, age: h }), null],
    ['from the future: stale 30 s after it', facts({ age: -10 * SECOND_MS }), NOW + 40 * SECOND_MS],
  ];

  it.each(rows)('%s', (_name, input, expected) => {
    expect(nextStatusDeadline(input, NOW)).toBe(expected);
  });

  it('nothing changes before the deadline, something changes on it (property)', () => {
    fc.assert(
      fc.property(arbFacts(), fc.integer({ min: 0, max: 1_000_000 }), (f, frac) => {
        const before = { status: computeAssetStatus(f, NOW), stale: isStale(f.heartbeatTime, NOW) };
        const deadline = nextStatusDeadline(f, NOW);
        if (deadline === null) {
          const later = NOW + 1000 * HOUR_MS;
          expect(computeAssetStatus(f, later)).toBe(before.status);
          expect(isStale(f.heartbeatTime, later)).toBe(before.stale);
          return;
        }
        expect(deadline).toBeGreaterThan(NOW);
        const t = NOW + Math.floor(((deadline - 1 - NOW) * frac) / 1_000_000);
        for (const at of [t, deadline - 1]) {
          expect(computeAssetStatus(f, at)).toBe(before.status);
          expect(isStale(f.heartbeatTime, at)).toBe(before.stale);
        }
        const changed = computeAssetStatus(f, deadline) !== before.status || isStale(f.heartbeatTime, deadline) !== before.stale;
        expect(changed).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('part1 §4 station check', () => {
  const atStation = { checkStation: false, stationId: 'st-1' };
  it.each([
    ['standby, no station in the data: cleared, check', standby, undefined, { checkStation: true, stationId: null }],
    ['stationary, data carries a station: kept, check', stationary, 'st-2', { checkStation: true, stationId: 'st-2' }],
    ['pending, data says null: cleared', pending, null, { checkStation: true, stationId: null }],
    ['offline: cleared, check', offline, undefined, { checkStation: true, stationId: null }],
    ['oos: cleared, check', oos, undefined, { checkStation: true, stationId: null }],
    ['active: unchanged', active, undefined, atStation],
    ['location: unchanged', location, undefined, atStation],
    ['active, data carries a station: taken', active, 'st-9', { checkStation: false, stationId: 'st-9' }],
  ] as const)('%s', (_name, status, incoming, expected) => {
    expect(applyStationCheck(status, atStation, incoming)).toEqual(expected);
  });
});

describe('part1 §4 status groups', () => {
  it('online = location, active, standby, stationary, pending', () => {
    expect(ONLINE_STATUSES).toEqual([location, active, standby, stationary, pending]);
  });

  it.each([
    [location, true],
    [active, true],
    [standby, true],
    [stationary, true],
    [pending, true],
    [offline, false],
    [oos, false],
  ] as const)('isOnline(%i) is %s', (status, expected) => {
    expect(isOnline(status)).toBe(expected);
  });

  it('connection groups are online, offline, out-of-service', () => {
    expect(CONNECTION_GROUPS).toEqual(['online', 'offline', 'out-of-service']);
  });

  it.each([
    [location, true, 'online'],
    [pending, true, 'online'],
    [offline, true, 'offline'],
    [oos, true, 'out-of-service'],
    [active, false, 'out-of-service'],
    [offline, false, 'out-of-service'],
  ] as const)('connectionGroup(%i, in service %s) is %s', (status, inService, expected) => {
    expect(connectionGroup(status, inService)).toBe(expected);
  });
});

describe('part1 §4 status labels by responder mix', () => {
  const r = { isResponderType: true };
  const n = { isResponderType: false };
  it.each([
    ['all responders', [r, r], 'all'],
    ['one responder', [r], 'all'],
    ['no assets', [], 'all'],
    ['mixed', [r, n, r], 'some'],
    ['mixed, other first', [n, r], 'some'],
    ['no responders', [n, n], 'none'],
  ] as const)('%s (%j) → %s', (_name, assets, expected) => {
    expect(responderMix(assets)).toBe(expected);
  });

  const labels: [AssetStatus, ResponderMix, string][] = [
    [location, 'all', 'On-Scene'],
    [active, 'all', 'Responding'],
    [location, 'some', 'On-Scene / Active Event'],
    [active, 'some', 'Responding / Active'],
    [location, 'none', 'Active Event'],
    [active, 'none', 'Active'],
  ];
  it.each(labels)('status %i with %s → %s', (status, mix, expected) => {
    expect(statusLabel(status, mix)).toBe(expected);
  });

  it.each([
    [standby, 'Standby'],
    [stationary, 'Stationary'],
    [pending, 'Pending'],
    [offline, 'Offline'],
    [oos, 'Out-of-Service'],
  ] as const)('status %i is %s whatever the mix', (status, expected) => {
    for (const mix of ['all', 'some', 'none'] as const) expect(statusLabel(status, mix)).toBe(expected);
  });

  it.each([
    ['all', 'Incidents'],
    ['some', 'Events'],
    ['none', 'Events'],
  ] as const)('part1 §2 section label with %s responders is %s', (mix, expected) => {
    expect(eventsSectionLabel(mix)).toBe(expected);
  });
});
