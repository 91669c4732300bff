import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../src/domain/constants';
import { closureFormSchema } from '../../../src/domain/validation/closure';
import { fieldErrors } from '../../../src/domain/validation/field-errors';

const NOW = Date.UTC(2024, 0, 15, 12, 0, 0); // 15 Jan 2024 12:00 UTC
const THREE_MONTHS = Date.UTC(2024, 3, 15, 12, 0, 0); // 15 Apr 2024 12:00 UTC
const p = (lat: number, lng: number) => ({ lat, lng });
const ROUTE_MESSAGE = "ERROR: Please create new Closure on map. Click 'View Instructions' above if needed.";

const valid = {
  closureType: 'manual',
  thingId: null,
  description: 'Bridge repair',
  alertMessage: 'Lane closed ahead',
  direction: 'N',
  impactedLanes: [1, 2],
  pathStart: p(40, -74),
  pathEnd: p(40.01, -74),
  userRoute: [p(40, -74), p(40.01, -74)],
  routePath: [p(40, -74), p(40.005, -74), p(40.01, -74)],
  isActive: true,
  isScheduled: false,
  startTime: null,
  endTime: NOW + DAY_MS,
  isPublishOn: false,
};
const x = (n: number): string => 'x'.repeat(n);

function errors(change: Record<string, unknown>, isWzdxOrg = false): Record<string, string> {
  return fieldErrors(closureFormSchema({ now: NOW, isWzdxOrg }).safeParse({ ...valid, ...change }));
}

describe('part2 §5 closure', () => {
  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    ['valid', {}, {}],
    ['description missing', { description: '  ' }, { description: 'Required' }],
    ['description of 100', { description: x(100) }, {}],
    ['description of 101', { description: x(101) }, { description: '100 Max Characters' }],
    ['alert message of 40', { alertMessage: x(40) }, {}],
    ['alert message of 41', { alertMessage: x(41) }, { alertMessage: '40 Max Characters' }],
    ['automated without an asset', { closureType: 'automated', thingId: null }, { thingId: 'Required' }],
    ['automated with an asset', { closureType: 'automated', thingId: 'thing-1' }, {}],
    ['automated with an asset hides the status section', { closureType: 'automated', thingId: 't', endTime: null }, {}],
    [
      'automated without an asset still shows it',
      { closureType: 'automated', thingId: null, endTime: null },
      { thingId: 'Required', endTime: 'End date required' },
    ],
    ['no route', { routePath: [] }, { routePath: ROUTE_MESSAGE }],
    ['no path start', { pathStart: null }, { pathStart: 'Required' }],
    ['no path end', { pathEnd: null }, { pathEnd: 'Required' }],
    ['user route of 1 point', { userRoute: [p(40, -74)] }, { userRoute: ROUTE_MESSAGE }],
    ['active without end', { endTime: null }, { endTime: 'End date required' }],
    ['active ending exactly 3 months ahead', { endTime: THREE_MONTHS }, {}],
    ['active ending 3 months + 1 ms ahead', { endTime: THREE_MONTHS + 1 }, { endTime: 'Must be within 3 months' }],
    ['active ending now', { endTime: NOW }, { endTime: 'End date must be in the future' }],
    ['scheduled', { isActive: false, isScheduled: true, startTime: NOW + DAY_MS, endTime: NOW + 2 * DAY_MS }, {}],
    ['scheduled with a past start', { isActive: false, isScheduled: true, startTime: NOW - DAY_MS, endTime: NOW + DAY_MS }, {}],
    ['scheduled without start', { isActive: false, isScheduled: true, startTime: null }, { startTime: 'Required' }],
    ['an unreadable end (a year 0000 typed)', { endTime: Number.NaN }, { endTime: 'Enter a date between 1970 and 2100' }],
    [
      'scheduled with an unreadable start',
      { isActive: false, isScheduled: true, startTime: Number.NaN, endTime: NOW + DAY_MS },
      { startTime: 'Enter a date between 1970 and 2100' },
    ],
    [
      'scheduled ending before start',
      { isActive: false, isScheduled: true, startTime: NOW + 2 * DAY_MS, endTime: NOW + DAY_MS },
      { endTime: 'End time must be after Start time' },
    ],
    ['inactive needs no times', { isActive: false, isScheduled: false, endTime: null }, {}],
    ['lane 1', { impactedLanes: [1] }, {}],
    ['lane 9', { impactedLanes: [9] }, {}],
    ['lane 0', { impactedLanes: [0] }, { 'impactedLanes.0': 'Must be between 1 and 9' }],
    ['lane 10', { impactedLanes: [2, 10] }, { 'impactedLanes.1': 'Must be between 1 and 9' }],
    ['lane 1.5', { impactedLanes: [1.5] }, { 'impactedLanes.0': 'Must be between 1 and 9' }],
    ['no direction outside WZDx organizations', { direction: '' }, {}],
    [
      'publishing without WZDx fields',
      { isPublishOn: true },
      { wzdxId: 'Required', locationMethod: 'Required', vehicleImpact: 'Required' },
    ],
    [
      'publishing with WZDx fields, no group',
      { isPublishOn: true, wzdxId: 'WZ-1', locationMethod: 'channel-device-method', vehicleImpact: 'some-lanes-closed' },
      {},
    ],
    ['WZDx id of 101', { isPublishOn: true, wzdxId: x(101), locationMethod: 'm', vehicleImpact: 'v' }, { wzdxId: '100 Max Characters' }],
    ['WZDx id of 100', { isPublishOn: true, wzdxId: x(100), locationMethod: 'm', vehicleImpact: 'v', groupId: 'g' }, {}],
    ['direction W', { direction: 'W' }, {}],
  ])('%s', (_name, change, expected) => {
    expect(errors(change)).toEqual(expected);
  });

  it.each<[unknown, Record<string, string>]>([
    ['', { direction: 'Required' }],
    [null, { direction: 'Required' }],
    ['E', {}],
  ])('direction %j for a WZDx organization', (direction, expected) => {
    expect(errors({ direction }, true)).toEqual(expected);
  });

  it('rejects a direction outside N/E/S/W', () => {
    expect(Object.keys(errors({ direction: 'NE' }))).toEqual(['direction']);
  });
});
