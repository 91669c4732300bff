import { and, eq, gte, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { routeWireSchema, type ClosureWire } from '../../../src/domain/closure';
import { CLOSURE_DIRECTIONS } from '../../../src/domain/constants';
import type { LatLng } from '../../../src/domain/geometry';
import type { IncrementalMeta } from '../../../src/domain/incremental';
import { canSeeOrg, thingVisibleSql, type OrgScope } from '../../auth/scope';
import type { Db } from '../../db/connection';
import { closures, organizations, organizationTypes, things } from '../../db/schema';
import { isUniqueViolation } from '../../core/errors';
import { nextVersion, sameVersion } from '../../db/rows';
import type { validClosure, validQuickUpdate } from './schema';

/**
 * The closure calls' reads and writes, and the wire object (`ClosureWire` of src/domain/closure.ts).
 * A missing record is undefined; a refused write is a `ClosureRefusal`, mapped by ./routes.
 */

const EXTERNAL_ID_INDEX = 'closures_external_id_idx';

// ── wire ─────────────────────────────────────────────────────────────────────

type ClosureRow = typeof closures.$inferSelect;

export interface ClosureJoinedRow {
  closure: ClosureRow;
  organization: { id: string; name: string; isWzdxOrg: boolean };
  organizationType: { id: string; name: string; acs: boolean } | null;
  thing: typeof things.$inferSelect | null;
}

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

function route(value: unknown): LatLng[] | null {
  const parsed = routeWireSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function closureToWire(row: ClosureJoinedRow): ClosureWire {
  const { closure, organization, organizationType, thing } = row;
  const direction = (CLOSURE_DIRECTIONS as readonly string[]).includes(closure.direction ?? '')
    ? (closure.direction as (typeof CLOSURE_DIRECTIONS)[number])
    : '';
  return {
    id: closure.id,
    closure_type: closure.closureType,
    is_active: closure.isActive,
    description: closure.description,
    alert_message: closure.alertMessage,
    direction,
    street_start: closure.streetStart,
    street_end: closure.streetEnd,
    external_id: closure.externalId,
    geocoded_route: route(closure.geocodedRoute),
    calculated_route: route(closure.calculatedRoute),
    user_route: route(closure.userRoute),
    impacted_lanes: closure.impactedLanes,
    // No column of its own: an automated closure is in service while its asset is (docs/api/areas-closures-zones-trips.md).
    is_in_service: thing?.inService ?? true,
    organization: {
      id: organization.id,
      name: organization.name,
      organization_type: organizationType
        ? { id: organizationType.id, name: organizationType.name, acs: organizationType.acs, icon_urls: {} }
        : null,
    },
    thing: thing
      ? {
          id: thing.id,
          nickname: thing.nickname,
          heartbeat_datetime: iso(thing.heartbeatAt),
          haas_id: thing.haasId,
          registry_number: thing.registryNumber,
          vin_number: thing.vinNumber,
          license_plate_number: thing.licensePlateNumber,
        }
      : null,
    last_start_time: iso(closure.lastStartTime),
    start_time: iso(closure.startTime),
    end_time: iso(closure.endTime),
    is_wzdx_compliant: closure.isWzdxCompliant,
    is_dashboard_managed: closure.isDashboardManaged,
    location_method: closure.locationMethod,
    vehicle_impact: closure.vehicleImpact,
    group_id: closure.groupId,
    version: closure.version,
  };
}

/** Closures with their organization, organization type and asset. */
export async function selectClosures(db: Db, where: SQL | undefined): Promise<ClosureJoinedRow[]> {
  return db
    .select({
      closure: closures,
      organization: { id: organizations.id, name: organizations.name, isWzdxOrg: organizations.isWzdxOrg },
      organizationType: { id: organizationTypes.id, name: organizationTypes.name, acs: organizationTypes.acs },
      thing: things,
    })
    .from(closures)
    .innerJoin(organizations, eq(organizations.id, closures.organizationId))
    .leftJoin(organizationTypes, eq(organizationTypes.id, organizations.organizationTypeId))
    .leftJoin(things, eq(things.id, closures.thingId))
    .where(where)
    .orderBy(closures.createdAt, closures.id);
}

/** A live closure the scope sees, else undefined. */
export async function findVisibleClosure(db: Db, scope: OrgScope, id: string): Promise<ClosureJoinedRow | undefined> {
  const [row] = await selectClosures(db, and(eq(closures.id, id), isNull(closures.deletedAt)));
  return row && canSeeOrg(scope, row.closure.organizationId) ? row : undefined;
}

/** The automated closure's asset (an id that is no uuid names none), if it is live and the scope sees it. */
export async function findVisibleThingId(db: Db, scope: OrgScope, thingId: string): Promise<string | undefined> {
  const id = z.uuid().safeParse(thingId);
  const visibleOrgs = scope.visibleOrgIds === null ? null : [...scope.visibleOrgIds];
  const [thing] = id.success
    ? await db
        .select({ id: things.id })
        .from(things)
        .where(and(eq(things.id, id.data), isNull(things.deletedAt), thingVisibleSql(scope, visibleOrgs)))
        .limit(1)
    : [];
  return thing?.id;
}

/**
 * Why a closure write was refused: its WZDx id is another closure's ('duplicate_wzdx_id', caught
 * from the unique index on either engine), it was saved since the copy the save was made from
 * ('stale'), or it is deleted ('gone').
 */
export type ClosureRefusal = 'duplicate_wzdx_id' | 'stale' | 'gone';

/** Runs a write; a duplicate WZDx id is the refusal 'duplicate_wzdx_id'. */
async function guardUnique<T>(write: () => Promise<T>): Promise<T | 'duplicate_wzdx_id'> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, EXTERNAL_ID_INDEX)) return 'duplicate_wzdx_id';
    throw error;
  }
}

export function notManaged(closure: ClosureRow): boolean {
  return closure.closureType === 'feed' || !closure.isDashboardManaged;
}

/** For the WZDx feed: the publishing closures of one organization (dashboard-managed, not deleted). */
export function publishingClosuresWhere(organizationId: string): SQL | undefined {
  return and(
    eq(closures.organizationId, organizationId),
    isNull(closures.deletedAt),
    eq(closures.isPublishOn, true),
    sql`${closures.closureType} <> 'feed'`,
  );
}

/** A closure's wire object now (after a write); 'gone' when there is none. */
async function closureAnswer(db: Db, id: string): Promise<ClosureWire | 'gone'> {
  const [row] = await selectClosures(db, eq(closures.id, id));
  return row ? closureToWire(row) : 'gone';
}

/**
 * GET /organization/closure: the live closures of the organizations (null: all), changed since
 * `since` when given, with the ids deleted since then (part 2 §7 incremental lists).
 */
export async function listClosures(
  db: Db,
  orgIds: readonly string[] | null,
  since: Date | null,
  now: Date,
): Promise<{ data: ClosureWire[]; meta: IncrementalMeta }> {
  const meta: IncrementalMeta = { server_timestamp: now.toISOString(), deleted_ids: [] };
  if (orgIds !== null && orgIds.length === 0) return { data: [], meta };
  const scoped = orgIds === null ? undefined : inArray(closures.organizationId, [...orgIds]);
  const live = and(scoped, isNull(closures.deletedAt), since ? gte(closures.updatedAt, since) : undefined);
  const data = (await selectClosures(db, live)).map(closureToWire);
  if (since) {
    const deleted = await db
      .select({ id: closures.id })
      .from(closures)
      .where(and(scoped, isNotNull(closures.deletedAt), gte(closures.deletedAt, since)));
    meta.deleted_ids = deleted.map((row) => row.id);
  }
  return { data, meta };
}

type ClosureValues = ReturnType<typeof validClosure>['values'];
type QuickValues = ReturnType<typeof validQuickUpdate>;

/** Inserts a closure; its wire object, or the refusal 'duplicate_wzdx_id'. */
export async function insertClosure(
  db: Db,
  organizationId: string,
  thingId: string | null,
  values: ClosureValues,
  now: Date,
): Promise<ClosureWire | ClosureRefusal> {
  const created = await guardUnique(() =>
    db
      .insert(closures)
      .values({ ...values, organizationId, thingId, createdAt: now, updatedAt: now })
      .returning({ id: closures.id }),
  );
  if (created === 'duplicate_wzdx_id') return created;
  return closureAnswer(db, created[0]!.id);
}

/**
 * Updates a live closure (a full write or a quick toggle), one version on: its wire object; 'gone'
 * when it was deleted meanwhile, 'stale' when `expected` (the save's If-Match) is no longer its
 * version, 'duplicate_wzdx_id' when its WZDx id is another closure's.
 */
export async function updateClosure(
  db: Db,
  id: string,
  values: (ClosureValues & { thingId: string | null }) | QuickValues,
  now: Date,
  expected: number | null = null,
): Promise<ClosureWire | ClosureRefusal> {
  const updated = await guardUnique(() =>
    db
      .update(closures)
      .set({ ...values, updatedAt: now, version: nextVersion(closures.version) })
      .where(and(eq(closures.id, id), isNull(closures.deletedAt), sameVersion(closures.version, expected)))
      .returning({ id: closures.id }),
  );
  if (updated === 'duplicate_wzdx_id') return updated;
  if (!updated[0]) {
    const [live] = await db
      .select({ id: closures.id })
      .from(closures)
      .where(and(eq(closures.id, id), isNull(closures.deletedAt)));
    return live ? 'stale' : 'gone';
  }
  return closureAnswer(db, id);
}

/** Soft-deletes a live closure (the incremental list reports it); its id, or 'gone'. */
export async function deleteClosure(db: Db, id: string, now: Date): Promise<{ id: string } | 'gone'> {
  const [deleted] = await db
    .update(closures)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(eq(closures.id, id), isNull(closures.deletedAt)))
    .returning({ id: closures.id });
  return deleted ? { id: deleted.id } : 'gone';
}
