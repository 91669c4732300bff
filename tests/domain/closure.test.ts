import { describe, expect, it } from 'vitest';
import {
  addCalendarMonths,
  closureConnection,
  closureMatchesSearch,
  closureRowHeight,
  closureSecondaryLabel,
  closureStatus,
  closureWireSchema,
  defaultClosureFilter,
  fromClosureWire,
  hasQuickToggle,
  hasWzdxBadge,
  isFeedManaged,
  matchesClosureFilter,
  nextClosureStatusDeadline,
  quickTogglePayload,
  toClosurePayload,
  type Closure,
  type ClosureFilter,
  type ClosureStatus,
  type ClosureType,
  type ClosureWire,
} from '../../src/domain/closure';
import { HOUR_MS, PENDING_WINDOW_MS, STANDBY_WINDOW_MS } from '../../src/domain/constants';

const NOW = Date.parse('2026-11-22T12:00:00.000Z');

function wire(overrides: Partial<ClosureWire> = {}): ClosureWire {
  return closureWireSchema.parse({
    id: 'c1',
    closure_type: 'automated',
    is_active: false,
    description: 'Bridge work',
    alert_message: 'Slow down',
    direction: 'N',
    street_start: 'Main St',
    street_end: '5th Ave',
    external_id: 'wz-1',
    geocoded_route: [
      { lat: 1, lng: 1 },
      { lat: 2, lng: 2 },
    ],
    calculated_route: [
      { lat: 3, lng: 3 },
      { lat: 4, lng: 4 },
    ],
    user_route: [
      { lat: 5, lng: 5 },
      { lat: 6, lng: 6 },
    ],
    impacted_lanes: [2, 1],
    is_in_service: true,
    organization: { id: 'org1', name: 'Org One', organization_type: { name: 'dot', acs: false } },
    thing: {
      id: 't1',
      nickname: 'Truck 7',
      heartbeat_datetime: new Date(NOW - HOUR_MS).toISOString(),
      haas_id: 'ha-0007',
      registry_number: null,
      vin_number: null,
      license_plate_number: null,
    },
    last_start_time: '2026-11-20T08:00:00.000Z',
    start_time: '2026-11-20T08:00:00.000Z',
    end_time: '2026-12-20T08:00:00.000Z',
    is_wzdx_compliant: true,
    is_dashboard_managed: true,
    location_method: 'channel-device-method',
    vehicle_impact: 'some-lanes-closed',
    group_id: 'g1',
    ...overrides,
  });
}

describe('part2 §4 closure status', () => {
  it('uses the 8 h and 96 h windows', () => {
    expect(STANDBY_WINDOW_MS).toBe(8 * HOUR_MS);
    expect(PENDING_WINDOW_MS).toBe(96 * HOUR_MS);
  });

  // Automated: active if is_active, else by the heartbeat. A boundary age belongs to the later state.
  it.each<[string, ClosureType, boolean, number | null, ClosureStatus]>([
    ['automated active', 'automated', true, null, 'active'],
    ['automated active, old heartbeat', 'automated', true, NOW - PENDING_WINDOW_MS * 2, 'active'],
    ['automated, heartbeat now', 'automated', false, NOW, 'standby'],
    ['automated, heartbeat in the future', 'automated', false, NOW + 1000, 'standby'],
    ['automated, 8 h - 1 ms', 'automated', false, NOW - STANDBY_WINDOW_MS + 1, 'standby'],
    ['automated, exactly 8 h', 'automated', false, NOW - STANDBY_WINDOW_MS, 'pending'],
    ['automated, 96 h - 1 ms', 'automated', false, NOW - PENDING_WINDOW_MS + 1, 'pending'],
    ['automated, exactly 96 h', 'automated', false, NOW - PENDING_WINDOW_MS, 'offline'],
    ['automated, 96 h + 1 ms', 'automated', false, NOW - PENDING_WINDOW_MS - 1, 'offline'],
    ['automated, no heartbeat', 'automated', false, null, 'offline'],
    ['manual active', 'manual', true, null, 'active'],
    ['manual inactive', 'manual', false, null, 'standby'],
    ['manual inactive, old heartbeat', 'manual', false, NOW - PENDING_WINDOW_MS, 'standby'],
    ['feed active', 'feed', true, null, 'active'],
    ['feed inactive', 'feed', false, NOW - PENDING_WINDOW_MS, 'standby'],
  ])('%s (%s, is_active %s, heartbeat %s) → %s', (_name, closureType, isActive, heartbeatTime, expected) => {
    expect(closureStatus({ closureType, isActive, heartbeatTime }, NOW)).toBe(expected);
  });

  it.each<[ClosureType, number | null, unknown[], ClosureStatus]>([
    ['automated', null, [{ id: 'c1' }], 'active'],
    ['automated', NOW - PENDING_WINDOW_MS, [{ id: 'other' }], 'active'],
    ['automated', NOW - STANDBY_WINDOW_MS, [], 'pending'],
    ['manual', NOW, [{ id: 'c1' }], 'standby'],
    ['feed', NOW, [{ id: 'c1' }], 'standby'],
  ])('an automated closure becomes active when its linked asset has active closures (%s, %s, %j)', (closureType, hb, active, expected) => {
    expect(closureStatus({ closureType, isActive: false, heartbeatTime: hb }, NOW, { activeClosures: active })).toBe(expected);
  });

  it.each([
    [{ closureType: 'automated' as const, isActive: false, heartbeatTime: NOW - HOUR_MS }, NOW - HOUR_MS + STANDBY_WINDOW_MS],
    [
      { closureType: 'automated' as const, isActive: false, heartbeatTime: NOW - STANDBY_WINDOW_MS },
      NOW - STANDBY_WINDOW_MS + PENDING_WINDOW_MS,
    ],
    [{ closureType: 'automated' as const, isActive: false, heartbeatTime: NOW - PENDING_WINDOW_MS }, null],
    [{ closureType: 'automated' as const, isActive: true, heartbeatTime: NOW }, null],
    [{ closureType: 'manual' as const, isActive: false, heartbeatTime: NOW }, null],
    [{ closureType: 'automated' as const, isActive: false, heartbeatTime: null }, null],
  ])('next status deadline of %j is %s', (facts, expected) => {
    const deadline = nextClosureStatusDeadline(facts, NOW);
    expect(deadline).toBe(expected);
    if (deadline !== null) {
      expect(closureStatus(facts, deadline - 1)).not.toBe(closureStatus(facts, deadline));
    }
  });
});

describe('part2 §3 Closure (server) → Closure (client)', () => {
  it('maps every field', () => {
    const c = fromClosureWire(wire(), NOW);
    expect(c).toEqual<Closure>({
      id: 'c1',
      description: 'Bridge work',
      secondaryDisplayName: 'by Truck 7',
      closureType: 'automated',
      status: 'standby',
      inService: true,
      isActive: false,
      startTime: Date.parse('2026-11-20T08:00:00.000Z'),
      endTime: Date.parse('2026-12-20T08:00:00.000Z'),
      lastStartTime: Date.parse('2026-11-20T08:00:00.000Z'),
      thingId: 't1',
      thingDisplayName: 'Truck 7',
      thingName: 'ha-0007',
      thingNickname: 'Truck 7',
      direction: 'N',
      impactedLanes: [2, 1],
      routePath: [
        { lat: 3, lng: 3 },
        { lat: 4, lng: 4 },
      ],
      userRoute: [
        { lat: 5, lng: 5 },
        { lat: 6, lng: 6 },
      ],
      streetStart: 'Main St',
      streetEnd: '5th Ave',
      alertMessage: 'Slow down',
      isPublishOn: true,
      wzdxId: 'wz-1',
      locationMethod: 'channel-device-method',
      vehicleImpact: 'some-lanes-closed',
      groupId: 'g1',
      isWzdxCompliant: true,
      isDashboardManaged: true,
      isNewForm: false,
      heartbeatTime: NOW - HOUR_MS,
      thingsAssociated: ['t1'],
      orgId: 'org1',
      orgName: 'Org One',
      version: null,
    });
  });

  it('the route falls back from calculated to geocoded to the user route', () => {
    expect(fromClosureWire(wire({ calculated_route: [] }), NOW).routePath[0]).toEqual({ lat: 1, lng: 1 });
    expect(fromClosureWire(wire({ calculated_route: null, geocoded_route: null }), NOW).routePath[0]).toEqual({ lat: 5, lng: 5 });
    expect(fromClosureWire(wire({ calculated_route: null, geocoded_route: null, user_route: null }), NOW).routePath).toEqual([]);
  });

  it.each([
    ['', null],
    [null, null],
    ['W', 'W'],
  ] as const)('direction %j → %j', (direction, expected) => {
    expect(fromClosureWire(wire({ direction }), NOW).direction).toBe(expected);
  });

  it('an asset with no nickname shows its upper-cased name', () => {
    const thing = { ...wire().thing!, nickname: null };
    expect(fromClosureWire(wire({ thing }), NOW).secondaryDisplayName).toBe('by HA-0007');
  });

  it('a feed closure is not republished and is managed by the feed', () => {
    const c = fromClosureWire(wire({ closure_type: 'feed', thing: null, is_dashboard_managed: null, external_id: 'feed-9' }), NOW);
    expect(c.isPublishOn).toBe(false);
    expect(c.wzdxId).toBe('feed-9');
    expect(c.secondaryDisplayName).toBe('feed-9');
    expect(c.isDashboardManaged).toBe(false);
    expect(isFeedManaged(c)).toBe(true);
    expect(c.thingsAssociated).toEqual([]);
  });

  it('no WZDx id means not publishing', () => {
    const c = fromClosureWire(wire({ external_id: '' }), NOW);
    expect(c.isPublishOn).toBe(false);
    expect(c.wzdxId).toBeNull();
  });

  it('status comes from the heartbeat at `now`', () => {
    expect(fromClosureWire(wire(), NOW + STANDBY_WINDOW_MS).status).toBe('pending');
    expect(fromClosureWire(wire(), NOW, { activeClosures: [1] }).status).toBe('active');
  });

  it('rejects an unknown closure type', () => {
    expect(closureWireSchema.safeParse({ ...wire(), closure_type: 'other' }).success).toBe(false);
  });
});

describe('part2 §2 closure rows', () => {
  it.each<[ClosureType, string, string | null, string]>([
    ['automated', 'Truck 7', null, 'by Truck 7'],
    ['feed', '', 'WZ-123', 'WZ-123'],
    ['manual', '', 'WZ-9', 'Manual Closure'],
    ['manual', 'Truck 7', null, 'Manual Closure'],
  ])('secondary label of %s (asset %j, WZDx id %j) → %s', (closureType, thingDisplayName, wzdxId, expected) => {
    expect(closureSecondaryLabel({ closureType, thingDisplayName, wzdxId })).toBe(expected);
  });

  // Decision: 90 px when the row carries a tag (out-of-service tag or WZDx badge), else 70 px.
  it.each([
    [true, null, false, 70],
    [true, 'wz-1', true, 90],
    [false, null, false, 90],
    [false, 'wz-1', true, 90],
  ])('part2 §9 row height: inService %s, wzdxId %s → badge %s, %s px', (inService, wzdxId, badge, height) => {
    expect(hasWzdxBadge({ wzdxId })).toBe(badge);
    expect(closureRowHeight({ inService, wzdxId })).toBe(height);
  });

  it.each<[ClosureType, boolean]>([
    ['manual', true],
    ['automated', false],
    ['feed', false],
  ])('quick toggle on %s: %s', (closureType, expected) => {
    expect(hasQuickToggle({ closureType })).toBe(expected);
  });
});

describe('part2 §4 closure filter', () => {
  const base = fromClosureWire(wire(), NOW);
  const make = (o: Partial<Closure>): Closure => ({ ...base, ...o });

  it('default filter: types automated, feed and manual; statuses active, standby and pending', () => {
    const f = defaultClosureFilter();
    expect([...f.types].sort()).toEqual(['automated', 'feed', 'manual']);
    expect([...f.statuses].sort()).toEqual(['active', 'pending', 'standby']);
    expect(f.search).toBe('');
  });

  it.each<[string, Partial<Closure>, boolean]>([
    ['active automated', { status: 'active' }, true],
    ['standby manual', { closureType: 'manual', status: 'standby' }, true],
    ['pending', { status: 'pending' }, true],
    ['offline', { status: 'offline' }, false],
    ['feed', { closureType: 'feed' }, true],
    ['out of service', { inService: false }, true],
  ])('default filter admits %s: %s', (_name, o, expected) => {
    expect(matchesClosureFilter(make(o), defaultClosureFilter())).toBe(expected);
  });

  it.each<[string, Partial<ClosureFilter>, Partial<Closure>, boolean]>([
    ['type excluded', { types: ['manual'] }, { closureType: 'automated' }, false],
    ['type included', { types: ['automated'] }, {}, true],
    ['offline status admitted', { statuses: ['offline'] }, { status: 'offline' }, true],
    ['online only hides offline', { statuses: ['offline'], connections: ['online'] }, { status: 'offline' }, false],
    ['offline only hides standby', { connections: ['offline'] }, { status: 'standby' }, false],
    ['out-of-service wins over online', { connections: ['online'] }, { inService: false }, false],
    ['out-of-service only', { connections: ['out-of-service'] }, { inService: false }, true],
    ['out-of-service only hides in-service', { connections: ['out-of-service'] }, {}, false],
    ['search description, any case', { search: 'BRIDGE' }, {}, true],
    ['search secondary label', { search: 'by truck' }, {}, true],
    ['search WZDx id', { search: 'wz-1' }, {}, true],
    ['search asset name', { search: 'HA-0007' }, {}, true],
    ['search street', { search: '5th' }, {}, true],
    ['search trimmed', { search: '  main st  ' }, {}, true],
    ['search miss', { search: 'tunnel' }, {}, false],
  ])('%s', (_name, f, o, expected) => {
    expect(matchesClosureFilter(make(o), { ...defaultClosureFilter(), ...f })).toBe(expected);
  });

  it.each([
    [{ inService: true, status: 'standby' as const }, 'online'],
    [{ inService: true, status: 'pending' as const }, 'online'],
    [{ inService: true, status: 'offline' as const }, 'offline'],
    [{ inService: false, status: 'active' as const }, 'out-of-service'],
    [{ inService: false, status: 'offline' as const }, 'out-of-service'],
  ])('connection of %j is %s', (c, expected) => {
    expect(closureConnection(c)).toBe(expected);
  });

  it('an empty search matches all', () => {
    expect(closureMatchesSearch(make({ description: '' }), '')).toBe(true);
    expect(closureMatchesSearch(make({ description: '' }), '   ')).toBe(true);
  });
});

describe('part2 §3 closure write payload', () => {
  it('sends uuid, thing_id, is_dashboard_managed true and the rest', () => {
    const c = fromClosureWire(
      wire({
        calculated_route: [
          { lat: 1.123456789, lng: 2.987654321 },
          { lat: 3, lng: 4 },
        ],
      }),
      NOW,
    );
    expect(toClosurePayload({ ...c, description: ' Bridge work ', impactedLanes: [3, 1, 3] })).toEqual({
      uuid: 'c1',
      thing_id: 't1',
      is_dashboard_managed: true,
      organization_id: 'org1',
      closure_type: 'automated',
      is_active: false,
      is_in_service: true,
      description: 'Bridge work',
      alert_message: 'Slow down',
      direction: 'N',
      street_start: 'Main St',
      street_end: '5th Ave',
      user_route: [
        { lat: 5, lng: 5 },
        { lat: 6, lng: 6 },
      ],
      calculated_route: [
        { lat: 1.1234567, lng: 2.9876543 },
        { lat: 3, lng: 4 },
      ],
      impacted_lanes: [1, 3],
      start_time: '2026-11-20T08:00:00.000Z',
      end_time: '2026-12-20T08:00:00.000Z',
      external_id: 'wz-1',
      location_method: 'channel-device-method',
      vehicle_impact: 'some-lanes-closed',
      group_id: 'g1',
    });
  });

  it('a manual closure sends no asset; publishing off clears the WZDx fields; a new closure sends no uuid', () => {
    const c = fromClosureWire(wire(), NOW);
    const payload = toClosurePayload({ ...c, id: '', closureType: 'manual', isPublishOn: false, direction: null });
    expect(payload).not.toHaveProperty('uuid');
    expect(payload.thing_id).toBeNull();
    expect(payload.is_dashboard_managed).toBe(true);
    expect(payload.direction).toBe('');
    expect(payload.external_id).toBeNull();
    expect(payload.location_method).toBeNull();
    expect(payload.vehicle_impact).toBeNull();
    expect(payload.group_id).toBeNull();
  });
});

describe('part2 §4 closure quick toggle', () => {
  it.each([
    ['2026-11-22T12:00:00.000Z', '2026-12-22T12:00:00.000Z'],
    ['2026-01-31T09:30:00.000Z', '2026-02-28T09:30:00.000Z'], // day clamped
    ['2024-01-31T09:30:00.000Z', '2024-02-29T09:30:00.000Z'], // leap year
    ['2026-12-15T23:59:59.999Z', '2027-01-15T23:59:59.999Z'], // year rolls over
    ['2026-03-31T00:00:00.000Z', '2026-04-30T00:00:00.000Z'],
  ])('activating at %s ends exactly one month ahead, %s', (now, end) => {
    expect(quickTogglePayload({ id: 'c1' }, true, Date.parse(now))).toEqual({
      uuid: 'c1',
      is_active: true,
      end_time: end,
      isQuickUpdate: true,
    });
  });

  it('deactivating sends end time null', () => {
    expect(quickTogglePayload({ id: 'c1' }, false, NOW)).toEqual({
      uuid: 'c1',
      is_active: false,
      end_time: null,
      isQuickUpdate: true,
    });
  });

  it.each([
    [0, '2026-11-22T12:00:00.000Z'],
    [3, '2027-02-22T12:00:00.000Z'],
    [-1, '2026-10-22T12:00:00.000Z'],
    [12, '2027-11-22T12:00:00.000Z'],
  ])('addCalendarMonths(now, %s) = %s', (months, expected) => {
    expect(new Date(addCalendarMonths(NOW, months)).toISOString()).toBe(expected);
  });
});
