import { describe, expect, it } from 'vitest';
import { deviceConfigWireSchema, fromDeviceConfigWire, toDeviceConfigPayload } from '../../src/domain/device-config';

const wire = {
  id: 'd1',
  organization_id: 'org1',
  thing_type_id: 'tt1',
  user_id: 'u1',
  model: 'HA7',
  platform: 'linux',
  file_name: 'ha7.conf',
  password: 'secret',
  heartbeat_interval: 60,
  warning_light_pin: 17,
  indicator_pin: 27,
  location_type: 'gps',
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-02T00:00:00.000Z',
};

describe('part2 §3 Device config', () => {
  it('maps the wire', () => {
    expect(fromDeviceConfigWire(deviceConfigWireSchema.parse(wire))).toEqual({
      id: 'd1',
      orgId: 'org1',
      thingTypeId: 'tt1',
      userId: 'u1',
      model: 'HA7',
      platform: 'linux',
      fileName: 'ha7.conf',
      password: 'secret',
      heartbeatInterval: 60,
      warningLightPin: 17,
      indicatorPin: 27,
      locationType: 'gps',
      createdAt: Date.parse('2026-11-01T00:00:00.000Z'),
      updatedAt: Date.parse('2026-11-02T00:00:00.000Z'),
    });
  });

  it.each<[string, Record<string, unknown>, boolean]>([
    ['valid', {}, true],
    ['no file name', { file_name: undefined }, false],
    ['fractional pin', { warning_light_pin: 1.5 }, false],
    ['no indicator pin', { indicator_pin: null }, true],
  ])('%s', (_name, o, ok) => {
    expect(deviceConfigWireSchema.safeParse({ ...wire, ...o }).success).toBe(ok);
  });

  it('payload round trip; a new config sends no id; empty password and location type go as null', () => {
    const config = fromDeviceConfigWire(deviceConfigWireSchema.parse(wire));
    expect(toDeviceConfigPayload(config)).toEqual({
      id: 'd1',
      organization_id: 'org1',
      thing_type_id: 'tt1',
      user_id: 'u1',
      model: 'HA7',
      platform: 'linux',
      file_name: 'ha7.conf',
      password: 'secret',
      heartbeat_interval: 60,
      warning_light_pin: 17,
      indicator_pin: 27,
      location_type: 'gps',
    });
    const fresh = toDeviceConfigPayload({ ...config, id: '', password: '', locationType: '  ' });
    expect(fresh).not.toHaveProperty('id');
    expect(fresh.password).toBeNull();
    expect(fresh.location_type).toBeNull();
  });
});
