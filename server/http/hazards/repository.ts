import { and, asc, eq, gte, inArray, isNull, lte, type SQL } from 'drizzle-orm';
import type { HazardSeverity, HazardType } from '../../../src/domain/constants';
import type { HazardWire } from '../../../src/domain/hazard';
import { thingVisibleSql, type OrgScope } from '../../auth/scope';
import type { Db } from '../../db/connection';
import { hazards, organizations, things } from '../../db/schema';

/**
 * The hazard calls' reads and writes, and the hazard wire (`hazardWireSchema` of
 * src/domain/hazard.ts). An asset the scope does not see is undefined, mapped by ./routes.
 */

// ── wire ─────────────────────────────────────────────────────────────────────

type HazardRow = { hazard: typeof hazards.$inferSelect; organizationName: string; haasId: string | null; nickname: string | null };

function hazardToWire(row: HazardRow): HazardWire {
  return {
    id: row.hazard.id,
    organization_id: row.hazard.organizationId,
    organization_name: row.organizationName,
    thing_id: row.hazard.thingId,
    thing_name: row.nickname?.trim() || row.haasId || null,
    hazard_type: row.hazard.hazardType as HazardType,
    severity: row.hazard.severity,
    lat: row.hazard.lat,
    lng: row.hazard.lng,
    reported_at: row.hazard.reportedAt.toISOString(),
  };
}

function selectHazards(db: Db, where: SQL | undefined) {
  return db
    .select({ hazard: hazards, organizationName: organizations.name, haasId: things.haasId, nickname: things.nickname })
    .from(hazards)
    .innerJoin(organizations, eq(organizations.id, hazards.organizationId))
    .leftJoin(things, eq(things.id, hazards.thingId))
    .where(where)
    .orderBy(asc(hazards.reportedAt), asc(hazards.id));
}

// ── reads ────────────────────────────────────────────────────────────────────

/** What the hazard report lists: `orgIds` null = every organization; `types` null = every type; no severity = every severity. */
export interface HazardFilter {
  orgIds: readonly string[] | null;
  startTime: Date;
  endTime: Date;
  types: readonly HazardType[] | null;
  severities: readonly HazardSeverity[];
}

/** The hazards reported in the range, oldest first. */
export async function listHazards(db: Db, filter: HazardFilter): Promise<HazardWire[]> {
  const { orgIds, types, severities } = filter;
  const rows = await selectHazards(
    db,
    and(
      orgIds === null ? undefined : inArray(hazards.organizationId, [...orgIds]),
      gte(hazards.reportedAt, filter.startTime),
      lte(hazards.reportedAt, filter.endTime),
      types === null ? undefined : inArray(hazards.hazardType, [...types]),
      severities.length > 0 ? inArray(hazards.severity, [...severities]) : undefined,
    ),
  );
  return rows.map(hazardToWire);
}

/** The organization of a live asset the scope sees, or undefined. */
export async function findVisibleThingOrg(db: Db, scope: OrgScope, thingId: string): Promise<string | undefined> {
  const visibleOrgs = scope.visibleOrgIds === null ? null : [...scope.visibleOrgIds];
  const [thing] = await db
    .select({ organizationId: things.organizationId })
    .from(things)
    .where(and(eq(things.id, thingId), isNull(things.deletedAt), thingVisibleSql(scope, visibleOrgs)))
    .limit(1);
  return thing?.organizationId;
}

// ── writes ───────────────────────────────────────────────────────────────────

/** A hazard as POST /organization/hazards stores it. */
export interface NewHazard {
  organizationId: string;
  thingId: string | null;
  hazardType: HazardType;
  severity: HazardSeverity;
  lat: number;
  lng: number;
  reportedAt: Date;
}

/** Stores a hazard; its wire, with the organization's and the asset's names. */
export async function insertHazard(db: Db, values: NewHazard): Promise<HazardWire> {
  const [created] = await db.insert(hazards).values(values).returning({ id: hazards.id });
  const [row] = await selectHazards(db, eq(hazards.id, created!.id));
  return hazardToWire(row!);
}
