import { describe, expect, it } from 'vitest';
import { ASSET_STATUS } from '../../../src/domain/asset-status';
import { rowDetailText, rowStatusLabel, rowTypeText, statusColorVar, type RowAsset } from '../../../src/features/things/asset-row-text';

const base: RowAsset = {
  status: ASSET_STATUS.standby,
  inService: true,
  speed: 0,
  courseDirection: null,
  street: null,
  heartbeatTime: Date.UTC(2026, 10, 22, 17, 5),
};

describe('part1 §2 Asset list: what a row writes', () => {
  it.each<[string, Partial<RowAsset>, string]>([
    [
      'a moving asset: speed (mph, rounded) and direction',
      { status: ASSET_STATUS.active, speed: 44.5, courseDirection: 'SW' },
      '45 mph SW',
    ],
    ['a moving asset with no course: speed only', { status: ASSET_STATUS.active, speed: 12 }, '12 mph'],
    ['a stationary asset: its street', { status: ASSET_STATUS.stationary, street: 'E 6th St' }, 'E 6th St'],
    ['no street: the last sync in the profile time zone', { status: ASSET_STATUS.pending }, 'Last sync 11/22/2026 11:05 AM'],
    ['never heard from', { status: ASSET_STATUS.offline, heartbeatTime: null }, 'Never synced'],
  ])('%s', (_name, patch, expected) => {
    expect(rowDetailText({ ...base, ...patch }, 'America/Chicago')).toBe(expected);
  });

  it('labels by the responder mix and colours by display status (out of service = --status-6)', () => {
    expect(rowStatusLabel({ status: ASSET_STATUS.location }, 'some')).toBe('On-Scene / Active Event');
    expect(rowStatusLabel({ status: ASSET_STATUS.active }, 'none')).toBe('Active');
    expect(statusColorVar({ status: ASSET_STATUS.standby, inService: true })).toBe('var(--status-2)');
    expect(statusColorVar({ status: ASSET_STATUS.standby, inService: false })).toBe('var(--status-6)');
  });

  it('writes a type name as words', () => {
    expect(rowTypeText('arrow_board')).toBe('arrow board');
    expect(rowTypeText(null)).toBe('');
  });
});
