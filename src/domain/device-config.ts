/**
 * Device configuration (part 2 §2 Account administration, §3 Device config). Its form's
 * validation ('Cannot be the same as Warning Light Pin') lives in validation/.
 *
 * §3 lists "organization, thing type, user" without their encoding; they travel as ids
 * (organization_id, thing_type_id, user_id). Pins are GPIO numbers; heartbeat_interval is seconds.
 */
import { z } from 'zod';
import { parseTime } from './time';

export const deviceConfigWireSchema = z.object({
  id: z.string(),
  organization_id: z.string(),
  thing_type_id: z.string().nullish(),
  user_id: z.string().nullish(),
  model: z.string(),
  platform: z.string(),
  file_name: z.string(),
  password: z.string().nullish(),
  heartbeat_interval: z.number().nullish(),
  warning_light_pin: z.number().int(),
  indicator_pin: z.number().int().nullish(),
  location_type: z.string().nullish(),
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
});
export type DeviceConfigWire = z.infer<typeof deviceConfigWireSchema>;

export interface DeviceConfig {
  id: string;
  orgId: string;
  thingTypeId: string | null;
  userId: string | null;
  model: string;
  platform: string;
  fileName: string;
  password: string;
  heartbeatInterval: number | null;
  warningLightPin: number;
  indicatorPin: number | null;
  locationType: string;
  createdAt: number | null;
  updatedAt: number | null;
}

export function fromDeviceConfigWire(wire: DeviceConfigWire): DeviceConfig {
  return {
    id: wire.id,
    orgId: wire.organization_id,
    thingTypeId: wire.thing_type_id ?? null,
    userId: wire.user_id ?? null,
    model: wire.model,
    platform: wire.platform,
    fileName: wire.file_name,
    password: wire.password ?? '',
    heartbeatInterval: wire.heartbeat_interval ?? null,
    warningLightPin: wire.warning_light_pin,
    indicatorPin: wire.indicator_pin ?? null,
    locationType: wire.location_type ?? '',
    createdAt: parseTime(wire.created_at),
    updatedAt: parseTime(wire.updated_at),
  };
}

/** The write body: the wire fields the user edits (timestamps are the server's). */
export interface DeviceConfigPayload {
  id?: string;
  organization_id: string;
  thing_type_id: string | null;
  user_id: string | null;
  model: string;
  platform: string;
  file_name: string;
  password: string | null;
  heartbeat_interval: number | null;
  warning_light_pin: number;
  indicator_pin: number | null;
  location_type: string | null;
}

/** A new configuration (empty id) sends no id; an empty password or location type is sent as null (no password: the server keeps the stored one). */
export function toDeviceConfigPayload(config: Omit<DeviceConfig, 'createdAt' | 'updatedAt'>): DeviceConfigPayload {
  const payload: DeviceConfigPayload = {
    organization_id: config.orgId,
    thing_type_id: config.thingTypeId,
    user_id: config.userId,
    model: config.model.trim(),
    platform: config.platform.trim(),
    file_name: config.fileName.trim(),
    password: config.password ? config.password : null,
    heartbeat_interval: config.heartbeatInterval,
    warning_light_pin: config.warningLightPin,
    indicator_pin: config.indicatorPin,
    location_type: config.locationType.trim() ? config.locationType.trim() : null,
  };
  if (config.id) payload.id = config.id;
  return payload;
}
