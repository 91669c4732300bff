/**
 * Device configuration (part 2 §2 "Device configuration", §3 Device config, §5 Device config).
 * Paths designed (§7 "Paths not shown"):
 *   GET /organization/device_configs?org_ids[]=..., POST /organization/device_configs,
 *   PUT /organization/device_configs/{id}, DELETE /organization/device_configs/{id}.
 * Device configuration is hardware administration: thing:admin:manage, or haas:manage.
 * The password is write-only: never answered; a write without one keeps the stored password.
 */
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DEVICE_CONFIG_PERMISSIONS } from '../../../src/domain/permissions';
import type { Caller } from '../../auth/context';
import type { Db } from '../../db/connection';
import type { ServerDeps } from '../../deps';
import { administeredOrg, administeredOrgIds, administeredOrgIdsQuery, canAdministerOrg } from '../account-admin';
import { deletedAnswer, idPath, listParam } from '../query';
import { errorAnswer, notFound, parse } from '../../core/errors';
import { documentedObject, documentedOnly } from '../route-validation';
import {
  deleteDeviceConfig,
  type DeviceConfigRow,
  deviceConfigWire,
  findDeviceConfig,
  findThingType,
  insertDeviceConfig,
  listDeviceConfigs,
  updateDeviceConfig,
} from './repository';
import {
  deviceConfigAnswer,
  deviceConfigBody,
  type DeviceConfigBody,
  type DeviceConfigValues,
  deviceConfigValues,
  idNotOfPath,
  thingTypeNotFound,
  validDeviceConfig,
} from './schema';

/** Validates a body with the domain's form rules, then its thing type (422 'Thing type not found'). */
async function validated(db: Db, body: DeviceConfigBody): Promise<DeviceConfigValues> {
  const form = validDeviceConfig(body);
  const type = await findThingType(db, String(form.thingType));
  if (!type) throw thingTypeNotFound();
  return deviceConfigValues(form, type.id);
}

/** A configuration of an organization the caller administers, or 404. */
async function findConfig(db: Db, caller: Caller, id: string): Promise<DeviceConfigRow> {
  const row = await findDeviceConfig(db, id);
  if (!row || !canAdministerOrg(caller.scope, row.organizationId)) throw notFound('Device config');
  return row;
}

export function deviceConfigRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

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
    return listDeviceConfigs(db, orgIds);
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
      const row = await insertDeviceConfig(db, { ...values, organizationId: org.id, userId: caller.userId }, deps.now());
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
      const current = await findConfig(db, caller, id);
      const body = parse(deviceConfigBody, request.body);
      if (body.id !== undefined && body.id !== current.id) throw idNotOfPath();
      const values = await validated(db, body);
      const org = await administeredOrg(db, caller, body.organization_id ?? current.organizationId);
      const row = await updateDeviceConfig(
        db,
        current.id,
        { ...values, password: values.password ?? current.password, organizationId: org.id, userId: caller.userId },
        deps.now(),
      );
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
      const current = await findConfig(db, caller, id);
      await deleteDeviceConfig(db, current.id);
      return { id: current.id };
    },
  );
}
