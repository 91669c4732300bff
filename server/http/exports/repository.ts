import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { EXPORTS_RUNNING_PER_ORGANIZATION, EXPORTS_RUNNING_PER_USER, type ExportType, type ExportWire } from '../../../src/domain/export';
import { monthYearLabel } from '../../../src/domain/time';
import { canSeeOrg, thingVisibleSql, type OrgScope } from '../../auth/scope';
import type { Db } from '../../db/connection';
import { exports, monthlyReports, organizations, things, users } from '../../db/schema';
import { FILE_KINDS } from '../../files';
import { enqueueJob } from '../../jobs/runner';

/** The export calls' reads and writes, and the export wire object (who may do what: ./routes). */

export type ExportRow = typeof exports.$inferSelect;

const iso = (time: Date | null): string | null => (time ? time.toISOString() : null);

/** The export wire of src/domain/export.ts, plus what was asked for and an errored export's reason. */
export function exportToWire(row: ExportRow, requesterDeleted = false): ExportWire & Record<string, unknown> {
  return {
    ...row.options,
    id: row.id,
    organization_id: row.organizationId,
    requested_by: row.requestedBy,
    requested_by_deleted: requesterDeleted,
    export_type: row.exportType,
    title: row.title,
    export_start_time: iso(row.exportStartTime),
    export_end_time: iso(row.exportEndTime),
    requested_at: row.requestedAt.toISOString(),
    completed_at: iso(row.completedAt),
    // An unfinished export's row names the file being written; only a completed one has a file.
    file_id: row.status === 'completed' ? row.fileId : null,
    status: row.status,
    use_utc: row.useUtc,
    error: row.status === 'errored' ? row.error : null,
    // part 2 §4 progress: rows written so far, of how many (null until counted), since when.
    rows_written: row.rowsWritten,
    rows_total: row.rowsTotal,
    started_at: iso(row.startedAt),
  };
}

// ── reads ────────────────────────────────────────────────────────────────────

/** The live exports of the organizations (null: all), newest first, each with whether its requester was deleted. */
export async function listExports(db: Db, orgIds: readonly string[] | null): Promise<{ row: ExportRow; requesterDeleted: boolean }[]> {
  const rows = await db
    .select({ export: exports, requesterDeletedAt: users.deletedAt })
    .from(exports)
    .leftJoin(users, eq(users.id, exports.requestedBy))
    .where(and(isNull(exports.deletedAt), orgIds === null ? undefined : inArray(exports.organizationId, [...orgIds])))
    .orderBy(desc(exports.requestedAt), desc(exports.id));
  return rows.map((row) => ({ row: row.export, requesterDeleted: row.requesterDeletedAt !== null }));
}

/** A live export the scope sees, else undefined (another organization's export is "not found"). */
export async function findVisibleExport(db: Db, scope: OrgScope, id: string): Promise<ExportRow | undefined> {
  const [row] = await db
    .select()
    .from(exports)
    .where(and(eq(exports.id, id), isNull(exports.deletedAt)))
    .limit(1);
  return row && canSeeOrg(scope, row.organizationId) ? row : undefined;
}

/** How many of the (distinct) asset ids are live assets of the organization that the scope sees. */
export async function countVisibleThings(db: Db, scope: OrgScope, organizationId: string, thingIds: readonly string[]): Promise<number> {
  const found = await db
    .select({ id: things.id })
    .from(things)
    .where(and(inArray(things.id, [...thingIds]), isNull(things.deletedAt), thingVisibleSql(scope, [organizationId])));
  return found.length;
}

/** Whether the user who requested an export is deleted (or gone). */
export async function isRequesterDeleted(db: Db, userId: string): Promise<boolean> {
  const [requester] = await db.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, userId)).limit(1);
  return !requester || requester.deletedAt !== null;
}

/**
 * A readable download name of a file: the export's title, or the report's organization and month;
 * null when the file is a deleted export's; the file id when no export or report names it.
 */
export async function findDownloadName(db: Db, fileId: string): Promise<string | null> {
  const [exp] = await db
    .select({ title: exports.title, deletedAt: exports.deletedAt })
    .from(exports)
    .where(eq(exports.fileId, fileId))
    .limit(1);
  if (exp) return exp.deletedAt ? null : `${exp.title}${FILE_KINDS.csv.extension}`;
  const [report] = await db
    .select({ year: monthlyReports.year, month: monthlyReports.month, orgName: organizations.name })
    .from(monthlyReports)
    .innerJoin(organizations, eq(organizations.id, monthlyReports.organizationId))
    .where(eq(monthlyReports.fileId, fileId))
    .limit(1);
  if (report) return `${report.orgName} ${monthYearLabel(report.year, report.month)}${FILE_KINDS.pdf.extension}`;
  return fileId;
}

// ── writes ───────────────────────────────────────────────────────────────────

/** Statuses of an export that still has work ahead (part 2 §3; the In-Progress tab). */
const RUNNING_STATUSES = ['requested', 'in_progress'] as const;

/** Who has too many exports running: the user or their organization. */
export type ExportLimit = 'user' | 'organization';

/**
 * Which limit a new export would pass while the user, or their organization, has as many running
 * as allowed (EXPORTS_RUNNING_PER_USER, EXPORTS_RUNNING_PER_ORGANIZATION; OWASP API4:2023
 * "Unrestricted Resource Consumption"), else null. The user's and the organization's rows are
 * locked first (always in that order), so two requests at once are counted one after the other
 * and cannot both slip in. A deleted export no longer counts: a waiting one is dropped by its job at once.
 */
async function exportLimitReached(tx: Db, userId: string, organizationId: string): Promise<ExportLimit | null> {
  await tx.execute(sql`select 1 from ${users} where ${users.id} = ${userId} for update`);
  await tx.execute(sql`select 1 from ${organizations} where ${organizations.id} = ${organizationId} for update`);
  const [counts] = await tx
    .select({
      user: sql<number>`count(*) filter (where ${exports.requestedBy} = ${userId})::int`,
      organization: sql<number>`count(*) filter (where ${exports.organizationId} = ${organizationId})::int`,
    })
    .from(exports)
    .where(
      and(
        isNull(exports.deletedAt),
        inArray(exports.status, [...RUNNING_STATUSES]),
        or(eq(exports.requestedBy, userId), eq(exports.organizationId, organizationId)),
      ),
    );
  if ((counts?.user ?? 0) >= EXPORTS_RUNNING_PER_USER) return 'user';
  if ((counts?.organization ?? 0) >= EXPORTS_RUNNING_PER_ORGANIZATION) return 'organization';
  return null;
}

/** A new export's values, as POST /organization/export asks for it. */
export interface NewExport {
  organizationId: string;
  requestedBy: string;
  exportType: ExportType;
  title: string;
  exportStartTime: Date | null;
  exportEndTime: Date | null;
  useUtc: boolean;
  options: Record<string, unknown>;
}

/**
 * Writes a requested export and queues its job, in one transaction, unless the user or the
 * organization has as many exports running as allowed: then nothing is written and the limit is named.
 */
export async function insertExport(db: Db, values: NewExport, now: Date): Promise<{ row: ExportRow } | { limit: ExportLimit }> {
  return db.transaction(async (tx) => {
    const limit = await exportLimitReached(tx, values.requestedBy, values.organizationId);
    if (limit) return { limit };
    const [row] = await tx
      .insert(exports)
      .values({ ...values, requestedAt: now, status: 'requested' })
      .returning();
    if (!row) throw new Error('export insert returned nothing');
    await enqueueJob(tx, 'export', { exportId: row.id }, now);
    return { row };
  });
}

/** Soft-deletes an export (a waiting one's job then drops it). */
export async function deleteExport(db: Db, id: string, now: Date): Promise<void> {
  await db.update(exports).set({ deletedAt: now }).where(eq(exports.id, id));
}
