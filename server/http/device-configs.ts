/**
 * Device configuration (part 2 §2 "Device configuration", §3 Device config, §5 Device config).
 * Paths designed (§7 "Paths not shown"):
 *   GET /organization/device_configs?org_ids[]=..., POST /organization/device_configs,
 *   PUT /organization/device_configs/{id}, DELETE /organization/device_configs/{id}.
 * Device configuration is hardware administration: thing:admin:manage, or haas:manage.
 * The password is write-only: never answered; a write without one keeps the stored password.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { deviceConfigWireSchema, type DeviceConfigWire } from '../../src/domain/device-config';
import { DEVICE_PIN_MAX, HEARTBEAT_INTERVAL_MAX_S } from '../../src/domain/constants';
import { DEVICE_CONFIG_PERMISSIONS } from '../../src/domain/permissions';
import { deviceConfigSchema } from '../../src/domain/validation/accounts';
import type { Caller } from '../auth/context';
import type { Db } from '../db/connection';
import { deviceConfigs, thingTypes } from '../db/schema';
import type { ServerDeps } from '../deps';
import { administeredOrg, administeredOrgIds, administeredOrgIdsQuery, canAdministerOrg } from './account-admin';
import { deletedAnswer, idPath, isUuid } from './query';
import { errorAnswer, notFound, parse, parseForm, unprocessable } from '../core/errors';
import { listParam } from './query';
import { documentedObject, documentedOnly } from './route-validation';

const TEXT_MAX = 100;

const pin = () =>
  z.number().int('must be a whole number').min(0, 'must be 0 or more').max(DEVICE_PIN_MAX, `must be ${DEVICE_PIN_MAX} or less`);

/** Types and sizes; the domain's device config form schema then gives the spec's messages. */
const deviceConfigBody = z.object({
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
type DeviceConfigBody = z.infer<typeof deviceConfigBody>;

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

type DeviceConfigRow = typeof deviceConfigs.$inferSelect;

/** A configuration as the calls answer it: the domain's wire without the password (write-only, part 2 §5). */
const deviceConfigAnswer = deviceConfigWireSchema.omit({ password: true });

/** The wire leaves the password out (write-only). */
function deviceConfigWire(row: DeviceConfigRow): DeviceConfigWire {
  return {
    id: row.id,
    organization_id: row.organizationId,
    thing_type_id: row.thingTypeId,
    user_id: row.userId,
    model: row.model,
    platform: row.platform,
    file_name: row.fileName,
    heartbeat_interval: row.heartbeatInterval,
    warning_light_pin: row.warningLightPin,
    indicator_pin: row.indicatorPin,
    location_type: row.locationType,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const orNull = (value: string | null | undefined): string | null => (value ? value : null);

/** Validates a body with the domain's form rules (pins compare as text: 'Cannot be the same as Warning Light Pin'). */
async function validated(db: Db, body: DeviceConfigBody) {
  const form = parseForm(
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
  const typeId = String(form.thingType);
  const [type] = isUuid(typeId) ? await db.select({ id: thingTypes.id }).from(thingTypes).where(eq(thingTypes.id, typeId)).limit(1) : [];
  if (!type) throw unprocessable('thing_type_id: Thing type not found', 'invalid', { fields: { thing_type_id: 'Thing type not found' } });
  return {
    thingTypeId: type.id,
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

export function deviceConfigRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  /** A configuration of an organization the caller administers, or 404. */
  async function findConfig(caller: Caller, id: string): Promise<DeviceConfigRow> {
    const [row] = isUuid(id) ? await db.select().from(deviceConfigs).where(eq(deviceConfigs.id, id)).limit(1) : [];
    if (!row || !canAdministerOrg(caller.scope, row.organizationId)) throw notFound('Device config');
    return row;
  }

  /**
   * The query is documented only: `org_ids[]` is read by listParam (a string or a list), and a
   * schema's check would refuse what the handler ignores today. 422: an id empty or too long, or over 1000.
   */
  const listSchema = {
    summary: "The device configurations of the organizations asked (default: the caller's)",
    querystring: documentedObject({ ...administeredOrgIdsQuery }),
    response: { 200: z.array(deviceConfigAnswer), 422: errorAnswer },
  };
  api.get('/organization/device_configs', { config: { access: DEVICE_CONFIG_PERMISSIONS }, schema: listSchema }, async (request) => {
    const { caller } = request;
    const orgIds = administeredOrgIds(caller.scope, listParam(request.query, 'org_ids'));
    if (orgIds.length === 0) return [];
    const rows = await db
      .select()
      .from(deviceConfigs)
      .where(inArray(deviceConfigs.organizationId, orgIds))
      .orderBy(asc(deviceConfigs.fileName), asc(deviceConfigs.id));
    return rows.map(deviceConfigWire);
  });

  /** Creates a configuration in `organization_id` (default: the caller's organization); user_id is the caller. */
  api.post(
    '/organization/device_configs',
    {
      config: { access: DEVICE_CONFIG_PERMISSIONS },
      schema: {
        summary: 'Add a device configuration to an organization',
        body: deviceConfigBody,
        response: { 201: deviceConfigAnswer, 404: errorAnswer },
      },
    },
    async (request, reply) => {
      const { caller, body } = request;
      const values = await validated(db, body);
      const org = await administeredOrg(db, caller, body.organization_id);
      const now = deps.now();
      const [row] = await db
        .insert(deviceConfigs)
        .values({ ...values, organizationId: org.id, userId: caller.userId, createdAt: now, updatedAt: now })
        .returning();
      if (!row) throw notFound('Device config');
      return reply.code(201).send(deviceConfigWire(row));
    },
  );

  /**
   * Replaces a configuration; user_id becomes the caller (who changed it last). It may move to another administered organization.
   * No password (absent, null or empty) keeps the stored one.
   */
  // The body is parsed after the lookup (an unknown id is 404 before any 422): documented only.
  api.put(
    '/organization/device_configs/:id',
    {
      config: { access: DEVICE_CONFIG_PERMISSIONS },
      schema: {
        summary: 'Replace a device configuration (no password keeps the stored one)',
        params: idPath,
        body: documentedOnly(deviceConfigBody.clone()),
        response: { 200: deviceConfigAnswer, 404: errorAnswer, 422: errorAnswer },
      },
    },
    async (request) => {
      const { caller } = request;
      const { id } = request.params;
      const current = await findConfig(caller, id);
      const body = parse(deviceConfigBody, request.body);
      if (body.id !== undefined && body.id !== current.id) {
        throw unprocessable('id: must be the id of the path', 'invalid', { fields: { id: 'must be the id of the path' } });
      }
      const values = await validated(db, body);
      const org = await administeredOrg(db, caller, body.organization_id ?? current.organizationId);
      const [row] = await db
        .update(deviceConfigs)
        .set({
          ...values,
          password: values.password ?? current.password,
          organizationId: org.id,
          userId: caller.userId,
          updatedAt: deps.now(),
        })
        .where(and(eq(deviceConfigs.id, current.id)))
        .returning();
      if (!row) throw notFound('Device config');
      return deviceConfigWire(row);
    },
  );

  api.delete(
    '/organization/device_configs/:id',
    {
      config: { access: DEVICE_CONFIG_PERMISSIONS },
      schema: {
        summary: 'Delete a device configuration',
        params: idPath,
        response: { 200: deletedAnswer, 404: errorAnswer },
      },
    },
    async (request) => {
      const { caller } = request;
      const { id } = request.params;
      const current = await findConfig(caller, id);
      await db.delete(deviceConfigs).where(eq(deviceConfigs.id, current.id));
      return { id: current.id };
    },
  );
}
