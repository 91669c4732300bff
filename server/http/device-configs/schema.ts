import { z } from 'zod';
import { deviceConfigWireSchema } from '../../../src/domain/device-config';
import { DEVICE_PIN_MAX, HEARTBEAT_INTERVAL_MAX_S } from '../../../src/domain/constants';
import { deviceConfigSchema, type DeviceConfigForm } from '../../../src/domain/validation/accounts';
import { parseForm, unprocessable } from '../../core/errors';

/**
 * The device configuration calls' body, answer, rules and texts (part 2 §3 Device config, §5 Device
 * config): sizes and types here, the domain's device config form schema for the spec's messages.
 */

const TEXT_MAX = 100;

const pin = () =>
  z.number().int('must be a whole number').min(0, 'must be 0 or more').max(DEVICE_PIN_MAX, `must be ${DEVICE_PIN_MAX} or less`);

/** Types and sizes; the domain's device config form schema then gives the spec's messages. */
export const deviceConfigBody = z.object({
  id: z.string().max(100).optional(),
  organization_id: z.string().max(100).nullish(),
  thing_type_id: z.string().max(100).nullish(),
  model: z.string().max(TEXT_MAX).nullish(),
  platform: z.string().max(TEXT_MAX).nullish(),
  file_name: z.string().max(255).nullish(),
  password: z.string().max(TEXT_MAX).nullish(),
  heartbeat_interval: z.number().int('must be a whole number').min(1).max(HEARTBEAT_INTERVAL_MAX_S).nullish(),
  warning_light_pin: pin().nullish(),
  indicator_pin: pin().nullish(),
  location_type: z.string().max(TEXT_MAX).nullish(),
});
export type DeviceConfigBody = z.infer<typeof deviceConfigBody>;

const DEVICE_CONFIG_FIELDS = {
  fileName: 'file_name',
  platform: 'platform',
  thingType: 'thing_type_id',
  model: 'model',
  warningLightPin: 'warning_light_pin',
  indicatorPin: 'indicator_pin',
  password: 'password',
  heartbeatInterval: 'heartbeat_interval',
  locationType: 'location_type',
} as const;

/** A configuration as the calls answer it: the domain's wire without the password (write-only, part 2 §5). */
export const deviceConfigAnswer = deviceConfigWireSchema.omit({ password: true });

export const thingTypeNotFound = () =>
  unprocessable('thing_type_id: Thing type not found', 'invalid', { fields: { thing_type_id: 'Thing type not found' } });
export const idNotOfPath = () =>
  unprocessable('id: must be the id of the path', 'invalid', { fields: { id: 'must be the id of the path' } });

/** Validates a body with the domain's form rules (pins compare as text: 'Cannot be the same as Warning Light Pin'). */
export function validDeviceConfig(body: DeviceConfigBody): DeviceConfigForm {
  return parseForm(
    deviceConfigSchema,
    {
      fileName: body.file_name ?? '',
      platform: body.platform ?? '',
      thingType: body.thing_type_id ?? '',
      model: body.model ?? '',
      warningLightPin: body.warning_light_pin === null || body.warning_light_pin === undefined ? '' : String(body.warning_light_pin),
      indicatorPin: body.indicator_pin === null || body.indicator_pin === undefined ? undefined : String(body.indicator_pin),
      password: body.password ?? undefined,
      heartbeatInterval: body.heartbeat_interval ?? null,
      locationType: body.location_type ?? undefined,
    },
    DEVICE_CONFIG_FIELDS,
  );
}

const orNull = (value: string | null | undefined): string | null => (value ? value : null);

/** What a valid form writes, with its thing type found. */
export function deviceConfigValues(form: DeviceConfigForm, thingTypeId: string) {
  return {
    thingTypeId,
    model: form.model,
    platform: form.platform,
    fileName: form.fileName,
    password: orNull(form.password),
    heartbeatInterval: form.heartbeatInterval ?? null,
    warningLightPin: Number(form.warningLightPin),
    indicatorPin: form.indicatorPin ? Number(form.indicatorPin) : null,
    locationType: orNull(form.locationType),
  };
}
export type DeviceConfigValues = ReturnType<typeof deviceConfigValues>;
