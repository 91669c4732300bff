import { sql } from 'drizzle-orm';
import { ASSET_TYPES, type AssetType } from '../../src/domain/constants';
import type { Permission } from '../../src/domain/permissions';
import type { Db } from './connection';
import { areaTypes, organizationTypes, roles, thingSubtypes, thingTypes } from './schema';

/**
 * Reference data every installation has (seeded or not): the roles of part 1 §3 / part 2 §6, the
 * seven asset types with subtypes, the area types and the organization types. Upserted on every
 * start, so a new release can add to them.
 */
const USER_PERMISSIONS: Permission[] = [
  'thing:read',
  'incident:read',
  'exclusion:read',
  'closure:read',
  'zone:read',
  'trip:read',
  'hazard:read',
  'report:read',
  'export:read',
  'export:create',
  'heatmap:read',
];
const ADMIN_PERMISSIONS: Permission[] = [
  ...USER_PERMISSIONS,
  'thing:manage',
  'thing:update',
  'incident:update',
  'exclusion:manage',
  'closure:manage',
  'mobile:closure:manage',
  'zone:manage',
  'report:manage',
  'export:manage',
  'user:manage',
  'thing:invoke_r2r',
  'thing:ha5_light_intensity_change',
  'integration_configuration:manage',
];
const ORG_ADMIN_PERMISSIONS: Permission[] = [
  ...ADMIN_PERMISSIONS,
  'organization:manage',
  'user:admin:manage',
  'thing:admin:manage',
  'billing:read',
];

export const ROLE_DEFINITIONS: ReadonlyArray<{ name: string; description: string; order: number; permissions: Permission[] }> = [
  { name: 'USER (Incidents / Events only)', description: 'Sees incidents and events only', order: 1, permissions: ['incident:read'] },
  { name: 'USER', description: 'Sees the live fleet and every section, changes nothing', order: 2, permissions: USER_PERMISSIONS },
  { name: 'ADMIN', description: 'Runs the fleet: assets, incidents, areas, closures, users', order: 3, permissions: ADMIN_PERMISSIONS },
  { name: 'MANUFACTURER ADMIN', description: 'Administers the organization and its users', order: 4, permissions: ORG_ADMIN_PERMISSIONS },
  {
    name: 'ENGINEER',
    description: 'Lightbar staff: every organization, R2R tests and the new accounts area',
    order: 5,
    permissions: [...ORG_ADMIN_PERMISSIONS, 'engineer:test', 'haas:manage'],
  },
];

const EMERGENCY: ReadonlySet<AssetType> = new Set(['police', 'fire', 'ambulance']);
const TYPE_LABELS: Record<AssetType, string> = {
  police: 'Police',
  fire: 'Fire',
  ambulance: 'Ambulance',
  arrow_board: 'Arrow Board',
  maintenance: 'Maintenance',
  tow: 'Tow',
  waste: 'Waste',
};
export const SUBTYPES: Record<AssetType, string[]> = {
  police: ['Patrol Car', 'SUV', 'Motorcycle'],
  fire: ['Engine', 'Ladder', 'Rescue'],
  ambulance: ['ALS', 'BLS'],
  arrow_board: ['Trailer', 'Truck Mounted'],
  maintenance: ['Plow', 'Sweeper', 'Attenuator Truck'],
  tow: ['Flatbed', 'Wrecker'],
  waste: ['Rear Loader', 'Side Loader'],
};

/** 'Truck Mounted' → 'truck_mounted' */
export const subtypeName = (label: string): string => label.toLowerCase().replace(/ /g, '_');

export const AREA_TYPE_DEFINITIONS = [
  { dbName: 'station', displayName: 'Station', isStationView: true, isAvType: false },
  { dbName: 'hospital', displayName: 'Hospital', isStationView: false, isAvType: false },
  { dbName: 'work_yard', displayName: 'Work Yard', isStationView: true, isAvType: false },
  { dbName: 'school_zone', displayName: 'School Zone', isStationView: false, isAvType: false },
  { dbName: 'no_stop', displayName: 'No Stop', isStationView: false, isAvType: true },
  { dbName: 'no_enter', displayName: 'No Enter', isStationView: false, isAvType: true },
  { dbName: 'other', displayName: 'Other', isStationView: false, isAvType: false },
] as const;

export const ORGANIZATION_TYPE_DEFINITIONS = [
  { name: 'Public Safety', acs: false },
  { name: 'Department of Transportation', acs: false },
  { name: 'ACS', acs: true },
] as const;

export async function ensureReferenceData(db: Db): Promise<void> {
  for (const role of ROLE_DEFINITIONS) {
    await db
      .insert(roles)
      .values(role)
      .onConflictDoUpdate({ target: roles.name, set: { description: role.description, order: role.order, permissions: role.permissions } });
  }
  for (const name of ASSET_TYPES) {
    const [type] = await db
      .insert(thingTypes)
      .values({ name, displayName: TYPE_LABELS[name], isEmergency: EMERGENCY.has(name) })
      .onConflictDoUpdate({ target: thingTypes.name, set: { displayName: TYPE_LABELS[name], isEmergency: EMERGENCY.has(name) } })
      .returning({ id: thingTypes.id });
    if (!type) continue;
    const existing = await db
      .select({ name: thingSubtypes.name })
      .from(thingSubtypes)
      .where(sql`${thingSubtypes.thingTypeId} = ${type.id}`);
    const have = new Set(existing.map((row) => row.name));
    const missing = SUBTYPES[name].filter((subtype) => !have.has(subtypeName(subtype)));
    if (missing.length) {
      await db
        .insert(thingSubtypes)
        .values(missing.map((subtype) => ({ thingTypeId: type.id, name: subtypeName(subtype), displayName: subtype })));
    }
  }
  for (const type of AREA_TYPE_DEFINITIONS) {
    await db.insert(areaTypes).values(type).onConflictDoUpdate({ target: areaTypes.dbName, set: type });
  }
  const orgTypes = await db.select({ name: organizationTypes.name }).from(organizationTypes);
  const haveTypes = new Set(orgTypes.map((row) => row.name));
  const missingTypes = ORGANIZATION_TYPE_DEFINITIONS.filter((type) => !haveTypes.has(type.name));
  if (missingTypes.length) await db.insert(organizationTypes).values([...missingTypes]);
}
