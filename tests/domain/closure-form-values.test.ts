import { describe, expect, it } from 'vitest';
import { closureWireSchema, fromClosureWire, type ClosureWire } from '../../src/domain/closure';
import {
  closureFormErrors,
  closureFormPayload,
  closureFormType,
  closureFormValues,
  closureModePatch,
  toggleImpactedLane,
  type ClosureFormErrors,
  type ClosureFormValues,
} from '../../src/domain/closure-form-values';
import type { ClosureFormMode } from '../../src/domain/closure-form';
import { DAY_MS, HOUR_MS } from '../../src/domain/constants';
import { MESSAGES } from '../../src/domain/validation/messages';

const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const A = { lat: 30.26, lng: -97.75 };
const B = { lat: 30.262, lng: -97.745 };

function closure(overrides: Partial<ClosureWire> = {}) {
  const wire = closureWireSchema.parse({
    id: 'c1',
    closure_type: 'manual',
    is_active: false,
    description: 'Bridge work',
    alert_message: 'Slow down',
    direction: 'N',
    street_start: 'Main St',
    street_end: '5th Ave',
    external_id: null,
    calculated_route: [A, B],
    user_route: [A, B],
    impacted_lanes: [2, 1],
    is_in_service: true,
    organization: { id: 'org1', name: 'Org One' },
    thing: null,
    start_time: null,
    end_time: null,
    is_dashboard_managed: true,
    ...overrides,
  });
  return fromClosureWire(wire, NOW);
}

/** A form that passes every §5 rule: manual, inactive, a path, a description. */
const valid = (o: Partial<ClosureFormValues> = {}): ClosureFormValues => ({
  ...closureFormValues(null),
  description: 'Lane closed',
  userRoute: [A, B],
  routePath: [A, B],
  ...o,
});

describe('part 2 §2 closure form: the values it opens with', () => {
  it('a new closure: manual, inactive, not published, shown on the map, nothing filled', () => {
    expect(closureFormValues(null)).toEqual({
      isDisplayed: true,
      thingId: '',
      description: '',
      alertMessage: '',
      direction: '',
      impactedLanes: [],
      userRoute: [],
      routePath: [],
      streetStart: '',
      streetEnd: '',
      isActive: false,
      isScheduled: false,
      startTime: null,
      endTime: null,
      isPublishOn: false,
      wzdxId: '',
      locationMethod: '',
      vehicleImpact: '',
      groupId: '',
    });
  });

  it.each<[string, Partial<ClosureWire>, Partial<ClosureFormValues>]>([
    ['a manual inactive closure', {}, { thingId: '', isActive: false, isScheduled: false, startTime: null, endTime: null }],
    [
      'an automated closure keeps its asset',
      { closure_type: 'automated', thing: { id: 't1', haas_id: 'ha-1', nickname: 'Truck 7' } },
      { thingId: 't1' },
    ],
    [
      'an active closure keeps its times',
      { is_active: true, start_time: new Date(NOW - HOUR_MS).toISOString(), end_time: new Date(NOW + DAY_MS).toISOString() },
      { isActive: true, isScheduled: false, startTime: NOW - HOUR_MS, endTime: NOW + DAY_MS },
    ],
    [
      'an inactive closure with a start is scheduled',
      { start_time: new Date(NOW + HOUR_MS).toISOString(), end_time: new Date(NOW + DAY_MS).toISOString() },
      { isActive: false, isScheduled: true, startTime: NOW + HOUR_MS, endTime: NOW + DAY_MS },
    ],
    ['an inactive closure with only an end drops it', { end_time: new Date(NOW + DAY_MS).toISOString() }, { endTime: null }],
    ['a route without drawn points is redrawn from the routed path', { user_route: [] }, { userRoute: [A, B], routePath: [A, B] }],
    [
      'the WZDx fields',
      { external_id: 'wz-1', location_method: 'sign-method', vehicle_impact: 'all-lanes-closed', group_id: 'g' },
      { isPublishOn: true, wzdxId: 'wz-1', locationMethod: 'sign-method', vehicleImpact: 'all-lanes-closed', groupId: 'g' },
    ],
  ])('%s', (_name, wire, expected) => {
    expect(closureFormValues(closure(wire))).toMatchObject(expected);
  });

  it.each([
    ['', 'manual'],
    ['t1', 'automated'],
  ] as const)('thingId %j → %s closure', (thingId, type) => {
    expect(closureFormType({ thingId })).toBe(type);
  });
});

describe('part 2 §4 closure form: a status switch turned on or off', () => {
  const scheduled = valid({ isScheduled: true, startTime: NOW + HOUR_MS, endTime: NOW + DAY_MS });
  const active = valid({ isActive: true, startTime: NOW - HOUR_MS, endTime: NOW + DAY_MS });
  it.each<[string, ClosureFormValues, ClosureFormMode, ReturnType<typeof closureModePatch>]>([
    ['inactive → active', valid(), 'active', { isActive: true, isScheduled: false, startTime: null, endTime: null }],
    [
      'scheduled → active keeps the end, clears the start',
      scheduled,
      'active',
      { isActive: true, isScheduled: false, startTime: null, endTime: NOW + DAY_MS },
    ],
    [
      'active → scheduled keeps both times',
      active,
      'scheduled',
      { isActive: false, isScheduled: true, startTime: NOW - HOUR_MS, endTime: NOW + DAY_MS },
    ],
    ['active → inactive clears the times', active, 'inactive', { isActive: false, isScheduled: false, startTime: null, endTime: null }],
    [
      'scheduled → inactive clears the times',
      scheduled,
      'inactive',
      { isActive: false, isScheduled: false, startTime: null, endTime: null },
    ],
  ])('%s', (_name, values, mode, patch) => {
    expect(closureModePatch(values, mode)).toEqual(patch);
  });
});

describe('part 2 §5 closure form: impacted lanes', () => {
  it.each<[number[], number, boolean, number[]]>([
    [[], 3, true, [3]],
    [[1, 5], 3, true, [1, 3, 5]],
    [[1, 3], 3, true, [1, 3]],
    [[1, 3, 5], 3, false, [1, 5]],
    [[1], 9, false, [1]],
  ])('lanes %j, lane %i checked %s → %j', (lanes, lane, checked, expected) => {
    expect(toggleImpactedLane(lanes, lane, checked)).toEqual(expected);
  });
});

describe('part 2 §5 closure form: the texts under each field', () => {
  it.each<[string, Partial<ClosureFormValues>, boolean, ClosureFormErrors]>([
    ['a valid manual closure', {}, false, {}],
    [
      'nothing filled (non-WZDx): description and path',
      { description: '', userRoute: [], routePath: [] },
      false,
      { description: MESSAGES.required, routePath: MESSAGES.closureRoute },
    ],
    [
      'nothing filled (WZDx organization): the direction too',
      { description: '', userRoute: [], routePath: [] },
      true,
      { description: MESSAGES.required, direction: MESSAGES.required, routePath: MESSAGES.closureRoute },
    ],
    ['a description of blanks', { description: '   ' }, false, { description: MESSAGES.required }],
    ['a description over 100', { description: 'x'.repeat(101) }, false, { description: MESSAGES.max100 }],
    ['a description of exactly 100', { description: 'x'.repeat(100) }, false, {}],
    ['an alert message over 40', { alertMessage: 'y'.repeat(41) }, false, { alertMessage: MESSAGES.max40 }],
    ['an alert message of exactly 40', { alertMessage: 'y'.repeat(40) }, false, {}],
    ['active with no end', { isActive: true }, false, { endTime: MESSAGES.endDateRequired }],
    ['active with an end in 2 days', { isActive: true, endTime: NOW + 2 * DAY_MS }, false, {}],
    ['active with an end in 100 days', { isActive: true, endTime: NOW + 100 * DAY_MS }, false, { endTime: MESSAGES.endDateTooFar }],
    ['scheduled with no times', { isScheduled: true }, false, { startTime: MESSAGES.required, endTime: MESSAGES.endDateRequired }],
    [
      'publishing with nothing filled',
      { isPublishOn: true },
      false,
      { wzdxId: MESSAGES.required, locationMethod: MESSAGES.required, vehicleImpact: MESSAGES.required },
    ],
    [
      'publishing, all filled, no group id',
      { isPublishOn: true, wzdxId: 'wz-1', locationMethod: 'sign-method', vehicleImpact: 'all-lanes-closed' },
      false,
      {},
    ],
    ['an automated closure hides the status: its times are not checked', { thingId: 't1', isActive: true }, false, {}],
  ])('%s', (_name, values, isWzdxOrg, errors) => {
    expect(closureFormErrors(valid(values), NOW, isWzdxOrg)).toEqual(errors);
  });
});

describe('part 2 §3 "Write payload", §4 times on save: the closure form\'s body', () => {
  const base = { id: 'c1', orgId: 'org1', inService: true };
  it.each<[string, Partial<ClosureFormValues>, Record<string, unknown>]>([
    ['inactive: no times', {}, { is_active: false, start_time: null, end_time: null, closure_type: 'manual', thing_id: null }],
    [
      'active: starts now, keeps the end',
      { isActive: true, endTime: NOW + DAY_MS },
      { is_active: true, start_time: new Date(NOW).toISOString(), end_time: new Date(NOW + DAY_MS).toISOString() },
    ],
    [
      'active already: keeps its start',
      { isActive: true, startTime: NOW - HOUR_MS, endTime: NOW + DAY_MS },
      { is_active: true, start_time: new Date(NOW - HOUR_MS).toISOString() },
    ],
    [
      'scheduled with a start already past: sent as scheduled (the server activates it)',
      { isScheduled: true, startTime: NOW - HOUR_MS, endTime: NOW + DAY_MS },
      { is_active: false, start_time: new Date(NOW - HOUR_MS).toISOString(), end_time: new Date(NOW + DAY_MS).toISOString() },
    ],
    ['an asset: automated', { thingId: 't1' }, { closure_type: 'automated', thing_id: 't1' }],
    ['no direction: empty', { direction: '' }, { direction: '' }],
    [
      'published: the WZDx fields',
      { isPublishOn: true, wzdxId: ' wz-1 ', locationMethod: 'sign-method', vehicleImpact: 'all-lanes-closed', groupId: '' },
      { external_id: 'wz-1', location_method: 'sign-method', vehicle_impact: 'all-lanes-closed', group_id: null },
    ],
    ['not published: none of them', { wzdxId: 'wz-1', locationMethod: 'sign-method' }, { external_id: null, location_method: null }],
  ])('%s', (_name, values, expected) => {
    expect(closureFormPayload(valid(values), base, NOW)).toMatchObject({ uuid: 'c1', organization_id: 'org1', ...expected });
  });
});
