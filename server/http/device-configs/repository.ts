import { asc, eq, inArray } from 'drizzle-orm';
import type { DeviceConfigWire } from '../../../src/domain/device-config';
import type { Db } from '../../db/connection';
import { deviceConfigs, thingTypes } from '../../db/schema';
import { isUuid } from '../query';
import type { DeviceConfigValues } from './schema';

/**
 * The device configuration calls' reads and writes, and the wire without the password (who may do
 * what: ./routes). An unknown id (or one that is no uuid) answers undefined.
 */

// ── wire ─────────────────────────────────────────────────────────────────────

export type DeviceConfigRow = typeof deviceConfigs.$inferSelect;

/** The wire leaves the password out (write-only). */
export function deviceConfigWire(row: DeviceConfigRow): DeviceConfigWire {
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

// ── reads ────────────────────────────────────────────────────────────────────

export async function findDeviceConfig(db: Db, id: string): Promise<DeviceConfigRow | undefined> {
  const [row] = isUuid(id) ? await db.select().from(deviceConfigs).where(eq(deviceConfigs.id, id)).limit(1) : [];
  return row;
}

/** A thing type by id (its id), or undefined. */
export async function findThingType(db: Db, id: string): Promise<{ id: string } | undefined> {
  const [type] = isUuid(id) ? await db.select({ id: thingTypes.id }).from(thingTypes).where(eq(thingTypes.id, id)).limit(1) : [];
  return type;
}

/** The configurations of the organizations, by file name, then id. */
export async function listDeviceConfigs(db: Db, orgIds: string[]): Promise<DeviceConfigWire[]> {
  const rows = await db
    .select()
    .from(deviceConfigs)
    .where(inArray(deviceConfigs.organizationId, orgIds))
    .orderBy(asc(deviceConfigs.fileName), asc(deviceConfigs.id));
  return rows.map(deviceConfigWire);
}

// ── writes ───────────────────────────────────────────────────────────────────

/** A configuration's values with its organization and the user who wrote it last. */
export type DeviceConfigWrite = DeviceConfigValues & { organizationId: string; userId: string };

export async function insertDeviceConfig(db: Db, values: DeviceConfigWrite, now: Date): Promise<DeviceConfigRow | undefined> {
  const [row] = await db
    .insert(deviceConfigs)
    .values({ ...values, createdAt: now, updatedAt: now })
    .returning();
  return row;
}

/** Replaces a configuration; the row, or undefined when it is gone. */
export async function updateDeviceConfig(db: Db, id: string, values: DeviceConfigWrite, now: Date): Promise<DeviceConfigRow | undefined> {
  const [row] = await db
    .update(deviceConfigs)
    .set({ ...values, updatedAt: now })
    .where(eq(deviceConfigs.id, id))
    .returning();
  return row;
}

export async function deleteDeviceConfig(db: Db, id: string): Promise<void> {
  await db.delete(deviceConfigs).where(eq(deviceConfigs.id, id));
}
