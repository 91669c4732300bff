import { describe, expect, it } from 'vitest';
import { HOUR_MS, MAX_INTEGRATIONS, SECOND_MS } from '../../src/domain/constants';
import { ASSET_STATUS } from '../../src/domain/asset-status';
import {
  assetToForm,
  fromThingWire,
  fromThingsWire,
  thingPayloadSchema,
  thingWireSchema,
  toAssociationsPayload,
  toThingPayload,
  associationsPayloadSchema,
  type Asset,
  type AssetForm,
  type ThingWireInput,
} from '../../src/domain/asset';

const NOW = Date.UTC(2024, 5, 1, 12, 0, 0);
const iso = (ms: number): string => new Date(ms).toISOString();

function wire(overrides: Partial<ThingWireInput> = {}) {
  return thingWireSchema.parse({
    id: 'a1',
    haas_id: 'haas-0001',
    heartbeat_datetime: iso(NOW - 10 * SECOND_MS),
    lat: 40.1,
    lng: -75.2,
    ...overrides,
  });
}

function asset(overrides: Partial<ThingWireInput> = {}): Asset {
  const a = fromThingWire(wire(overrides), NOW);
  if (!a) throw new Error('expected an asset');
  return a;
}

describe('part1 §3 thing wire schema', () => {
  it('fills the defaults of a minimal thing', () => {
    const w = wire();
    expect(w).toMatchObject({
      in_service: true,
      is_publicly_alerting: true,
      enroute: false,
      is_responder: true,
      is_r2r_enabled: false,
      feed_subscriptions: [],
      integrations: [],
      external_identifiers: [],
      active_closures: [],
      organization_relationships: [],
    });
  });

  it('parses every field of part 1 §3', () => {
    const full: ThingWireInput = {
      id: 'a2',
      haas_id: 'h2',
      nickname: 'Engine 2',
      heartbeat_datetime: iso(NOW),
      updated_at: iso(NOW),
      thing_type: 'fire',
      thing_type_id: 't-fire',
      thing_subtype: 'engine',
      thing_subtype_id: 'st-engine',
      in_service: false,
      is_publicly_alerting: false,
      enroute: true,
      status: 'active',
      lat: 1,
      lng: 2,
      accuracy: 5,
      course: 90,
      speed: 30,
      street: 'Main St',
      station_id: 'station-1',
      location_id: 'loc-1',
      incident_start_time: iso(NOW - HOUR_MS),
      incident_end_time: null,
      run_id: 'run-1',
      run_start_time: iso(NOW - HOUR_MS),
      run_points_count: 12,
      runtime: 3600,
      is_r2r_enabled: true,
      is_test_mode_on: true,
      is_allowed_for_test_mode: true,
      is_allowed_for_closures: true,
      is_responder: false,
      is_integration_org: true,
      device_type: 'api',
      feed_subscriptions: ['feed-1'],
      integrations: [{ name: 'samsara', id: 'i1' }],
      external_identifiers: [{ identifier_id: 'x1', system_name: 'samsara' }],
      active_closures: [{ id: 'c1', wzdx_id: 'w1' }],
      organization: { id: 'o1', name: 'Org', organization_type: { id: 'ot', name: 'fleet', acs: false } },
      organization_relationships: [{ organization_uuid: 'o2', organization_name: 'Other', relationship_type: 'manager' }],
      vin_number: 'VIN1',
      license_plate_number: 'PL1',
      registry_number: 'R1',
      external_id: 'ext-1',
    };
    expect(thingWireSchema.safeParse(full).success).toBe(true);
  });

  it.each([
    [
      'a bad relationship type',
      { organization_relationships: [{ organization_uuid: 'o', organization_name: 'O', relationship_type: 'owner' }] },
    ],
    ['a bad status', { status: 'location' }],
    ['a bad date', { heartbeat_datetime: 'yesterday' }],
    ['a string latitude', { lat: '40.1' }],
  ])('rejects %s', (_name, bad) => {
    expect(thingWireSchema.safeParse({ id: 'a', haas_id: 'h', ...bad }).success).toBe(false);
  });
});

describe('part1 §3 asset model (fromThingWire)', () => {
  it.each([
    ['no lat', { lat: null }],
    ['no lng', { lng: null }],
    ['lat left out', { lat: undefined }],
  ])('drops an asset with %s', (_name, overrides) => {
    expect(fromThingWire(wire(overrides), NOW)).toBeNull();
  });

  it('keeps lat 0 / lng 0', () => {
    expect(asset({ lat: 0, lng: 0 }).position).toEqual({ lat: 0, lng: 0 });
  });

  it.each([
    ['a nickname', { nickname: 'Engine 7' }, 'Engine 7', 'haas-0001'],
    ['no nickname', { nickname: null }, 'HAAS-0001', null],
    ['an empty nickname', { nickname: '' }, 'HAAS-0001', null],
  ])('display names with %s', (_name, overrides, primary, secondary) => {
    const a = asset(overrides);
    expect(a.primaryDisplayName).toBe(primary);
    expect(a.secondaryDisplayName).toBe(secondary);
    expect(a.name).toBe('haas-0001');
  });

  it.each([
    ['api', 'ext-9', 'ext-9'],
    ['ha5', 'ext-9', null],
    [null, 'ext-9', null],
    ['api', null, null],
  ] as const)('systemId with device type %s and external id %s is %s', (deviceType, externalId, expected) => {
    const a = asset({ device_type: deviceType, external_id: externalId });
    expect(a.systemId).toBe(expected);
    expect(a.externalId).toBe(externalId);
  });

  it.each([
    ['a location id', { location_id: 'loc-1' }, true, ASSET_STATUS.location],
    ['no location id', { location_id: null }, false, ASSET_STATUS.standby],
  ])('isOnIncident with %s', (_name, overrides, onIncident, status) => {
    const a = asset(overrides);
    expect(a.isOnIncident).toBe(onIncident);
    expect(a.status).toBe(status);
  });

  it.each([
    [null, 0],
    [undefined, 0],
    [42.5, 42.5],
  ])('speed %s → %s (default 0)', (speed, expected) => {
    expect(asset({ speed }).speed).toBe(expected);
  });

  it.each([
    [null, null],
    [0, 'N'],
    [100, 'E'],
    [-45, 'NW'],
  ] as const)('course %s → direction %s', (course, expected) => {
    expect(asset({ course }).courseDirection).toBe(expected);
  });

  it('recomputes the status, ignoring the one on the wire (README)', () => {
    const a = asset({ status: 'active', heartbeat_datetime: iso(NOW - 8 * HOUR_MS), enroute: true });
    expect(a.status).toBe(ASSET_STATUS.pending);
  });

  it.each([
    ['enroute, fresh', { enroute: true }, ASSET_STATUS.active],
    ['fresh with a street', { street: 'Main St' }, ASSET_STATUS.stationary],
    ['active closures', { active_closures: [{ id: 'c' }] }, ASSET_STATUS.active],
    ['no heartbeat', { heartbeat_datetime: null }, ASSET_STATUS.offline],
    ['96 h silent', { heartbeat_datetime: iso(NOW - 96 * HOUR_MS) }, ASSET_STATUS.offline],
  ])('status: %s', (_name, overrides, expected) => {
    expect(asset(overrides).status).toBe(expected);
  });

  it.each([
    ['10 s old', iso(NOW - 10 * SECOND_MS), false],
    ['exactly 30 s old', iso(NOW - 30 * SECOND_MS), true],
    ['none', null, true],
  ])('isStale with a heartbeat %s', (_name, heartbeat, expected) => {
    expect(asset({ heartbeat_datetime: heartbeat }).isStale).toBe(expected);
  });

  it.each([
    ['standby at a station in the data', { station_id: 's1' }, true, 's1'],
    ['standby, no station', { station_id: null }, true, null],
    ['enroute (active) with a station', { enroute: true, station_id: 's1' }, false, 's1'],
  ])('station check: %s', (_name, overrides, check, stationId) => {
    const a = asset(overrides);
    expect(a.checkStation).toBe(check);
    expect(a.stationId).toBe(stationId);
  });

  it('maps times to ms and the rest to camelCase', () => {
    const a = asset({
      incident_start_time: '2024-06-01T11:00:00Z',
      run_start_time: '2024-06-01T11:30:00.000+00:00',
      active_closures: [{ id: 'c1', wzdx_id: null }],
      external_identifiers: [{ identifier_id: 'x', system_name: 'geotab' }],
      organization: { id: 'o1', name: 'Org', organization_type: { name: 'acs', acs: true } },
      organization_relationships: [{ organization_uuid: 'o2', organization_name: 'B', relationship_type: 'accessor' }],
      license_plate_number: 'PL',
      is_responder: false,
    });
    expect(a.incidentStartTime).toBe(NOW - HOUR_MS);
    expect(a.runStartTime).toBe(NOW - HOUR_MS / 2);
    expect(a.heartbeatTime).toBe(NOW - 10 * SECOND_MS);
    expect(a.activeClosures).toEqual([{ id: 'c1', wzdxId: null }]);
    expect(a.externalIdentifiers).toEqual([{ identifierId: 'x', systemName: 'geotab' }]);
    expect(a.organization).toEqual({ id: 'o1', name: 'Org', organizationType: { id: null, name: 'acs', acs: true, iconUrls: {} } });
    expect(a.organizationRelationships).toEqual([{ organizationUuid: 'o2', organizationName: 'B', relationshipType: 'accessor' }]);
    expect(a.plateNumber).toBe('PL');
    expect(a.isResponderType).toBe(false);
  });

  it('builds a lower-cased search text of names and ids', () => {
    const a = asset({ nickname: 'Engine 7', vin_number: 'VINABC', license_plate_number: 'PLT-9', external_id: 'EXT' });
    for (const part of ['engine 7', 'haas-0001', 'a1', 'vinabc', 'plt-9', 'ext']) expect(a.searchText).toContain(part);
    expect(a.searchText).toBe(a.searchText.toLowerCase());
  });
});

describe('part1 §3 fromThingsWire keeps only positioned assets', () => {
  it('drops the unpositioned and keeps order', () => {
    const list = [wire({ id: 'x' }), wire({ id: 'y', lat: null }), wire({ id: 'z', lng: null }), wire({ id: 'w' })];
    expect(fromThingsWire(list, NOW).map((a) => a.id)).toEqual(['x', 'w']);
  });
});

describe('part1 §3 thing form', () => {
  it('assetToForm fills the form from the asset', () => {
    const a = asset({
      nickname: 'Engine 7',
      thing_type_id: 't1',
      thing_subtype_id: 's1',
      vin_number: 'VIN',
      external_identifiers: [
        { identifier_id: '1', system_name: 'samsara' },
        { identifier_id: '2', system_name: 'geotab' },
        { identifier_id: '3', system_name: 'extra' },
      ],
    });
    expect(assetToForm(a)).toEqual<AssetForm>({
      id: 'a1',
      inService: true,
      isPubliclyReporting: true,
      nickname: 'Engine 7',
      thingType: 't1',
      thingSubtype: 's1',
      vinNumber: 'VIN',
      plateNumber: '',
      registryNumber: '',
      integrations: [
        { provider: 'samsara', id: '1' },
        { provider: 'geotab', id: '2' },
      ],
    });
    expect(assetToForm(a).integrations).toHaveLength(MAX_INTEGRATIONS);
  });

  it('missing values become empty strings', () => {
    const form = assetToForm(asset());
    expect([form.nickname, form.thingType, form.thingSubtype, form.vinNumber]).toEqual(['', '', '', '']);
  });
});

describe('part1 §7 PUT /things/{id} payload', () => {
  const form: AssetForm = {
    id: 'a1',
    inService: false,
    isPubliclyReporting: true,
    nickname: '  Engine 7 ',
    thingType: 't1',
    thingSubtype: 's1',
    vinNumber: 'VIN1',
    plateNumber: '',
    registryNumber: ' R9 ',
    integrations: [{ provider: 'samsara', id: ' 123 ' }],
  };

  it('maps the form', () => {
    expect(toThingPayload(form)).toEqual({
      id: 'a1',
      in_service: false,
      is_publicly_alerting: true,
      nickname: 'Engine 7',
      thing_type_id: 't1',
      thing_subtype_id: 's1',
      vin_number: 'VIN1',
      license_plate_number: null,
      registry_number: 'R9',
      external_identifiers: [{ identifier_id: '123', system_name: 'samsara', is_deleted: false }],
    });
  });

  it('leaves out a blank nickname and type, clears a blank subtype', () => {
    const p = toThingPayload({ ...form, nickname: '  ', thingType: '', thingSubtype: '' });
    expect(p).not.toHaveProperty('nickname');
    expect(p).not.toHaveProperty('thing_type_id');
    expect(p.thing_subtype_id).toBeNull();
  });

  it('marks a removed integration is_deleted true, a kept one false', () => {
    const initial: AssetForm = {
      ...form,
      integrations: [
        { provider: 'samsara', id: '1' },
        { provider: 'geotab', id: '2' },
      ],
    };
    expect(toThingPayload(form, initial).external_identifiers).toEqual([
      { identifier_id: '123', system_name: 'samsara', is_deleted: false },
      { identifier_id: '2', system_name: 'geotab', is_deleted: true },
    ]);
  });

  it('skips an integration row without provider or id', () => {
    const p = toThingPayload({
      ...form,
      integrations: [
        { provider: '', id: '1' },
        { provider: 'geotab', id: ' ' },
      ],
    });
    expect(p.external_identifiers).toEqual([]);
  });

  it('the schema defaults is_deleted to false', () => {
    const parsed = thingPayloadSchema.parse({
      id: 'a',
      in_service: true,
      is_publicly_alerting: true,
      external_identifiers: [{ identifier_id: '1', system_name: 'samsara' }],
    });
    expect(parsed.external_identifiers[0]?.is_deleted).toBe(false);
  });

  it('its output passes its own schema', () => {
    expect(thingPayloadSchema.safeParse(toThingPayload(form)).success).toBe(true);
  });
});

describe('part1 §5, §7 associations payload', () => {
  it('keeps manager and accessor rows, drops delete rows', () => {
    const payload = toAssociationsPayload([
      { organizationUuid: 'o1', organizationName: 'One', relationshipType: 'manager' },
      { organizationUuid: 'o2', organizationName: 'Two', relationshipType: 'delete' },
      { organizationUuid: 'o3', organizationName: 'Three', relationshipType: 'accessor' },
    ]);
    expect(payload).toEqual({
      organization_relationships: [
        { organization_uuid: 'o1', organization_name: 'One', relationship_type: 'manager' },
        { organization_uuid: 'o3', organization_name: 'Three', relationship_type: 'accessor' },
      ],
    });
    expect(associationsPayloadSchema.safeParse(payload).success).toBe(true);
  });
});
