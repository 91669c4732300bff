import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { TZDate } from '@date-fns/tz';
import { stringify } from 'csv-stringify';
import { format } from 'date-fns';
import { and, asc, eq, gt, gte, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { CLOSURE_EXPORT_INCLUDES, EXPORT_MAX_ROWS, EXPORT_TOO_LARGE_REASON } from '../../src/domain/export';
import type { Db } from '../db/connection';
import {
  closures,
  exports,
  locationNotes,
  locations,
  locationThings,
  organizations,
  points,
  things,
  thingSubtypes,
  thingTypes,
  users,
} from '../db/schema';
import { userName } from '../core/location-wire';
import { createFileStore, type FileStore } from '../files';
import { JobError } from './job-error';
import type { JobDeps, JobHandler } from './job-handler';

/**
 * The 'export' job (part 2 §3 Export, §4 "Export wizard and exports").
 *
 * What each type holds, for the export's organization:
 * - incident: the events (locations) that started in the range; with assets chosen, those with
 *   one of them; `include_no_thing_il` adds the events with no asset. Each with its acknowledgement
 *   and its notes (docs/decisions/spec.md "Incident notes and acknowledgement").
 * - point: the chosen assets' points in the range, by asset, then time.
 * - thing (Asset): the organization's assets as they are now (the range is optional and not a
 *   filter: an asset list has no time), or the chosen ones.
 * - closure: closures active at some time in the range: the chosen assets' closures plus the
 *   manual and/or feed closures of `closures_to_include`.
 * Times are ISO 8601: UTC (`2026-11-21T06:00:00Z`) when `use_utc`, else the organization's time
 * zone with its offset (`2026-11-21T00:00:00-06:00`). Every file starts with a header row.
 */
export const exportOptionsSchema = z.object({
  thing_uuids: z.array(z.string()).default([]),
  include_no_thing_il: z.boolean().default(false),
  closures_to_include: z.array(z.enum(CLOSURE_EXPORT_INCLUDES)).default([]),
});
export type ExportOptions = z.infer<typeof exportOptionsSchema>;

const payloadSchema = z.object({ exportId: z.uuid() });

/** Points are read in pages of this many rows, so a month of points never sits in memory. */
const POINT_PAGE = 5_000;

type Cell = string | number | boolean | null;

/**
 * The first characters that make a spreadsheet read a cell as a formula (OWASP "CSV Injection"):
 * `=`, `+`, `-`, `@`, tab (0x09) and carriage return (0x0D).
 */
const FORMULA_START = /^[=+\-@\t\r]/;
/** What OWASP recommends in front of such a cell: a single quote makes it plain text. */
const FORMULA_GUARD = "'";

/**
 * A cell as it may be written (OWASP "CSV Injection"). The decision is made by the value's type:
 * only text can hold a formula, so a string starting with a formula character gets a single quote
 * in front; numbers (a longitude of -97.7), booleans and empty cells are written as they are.
 * Text that looks like a number ('-5' typed as a registry number) is text and is guarded too.
 */
export function neutralizeCsvCell<T extends Cell>(cell: T): T | string {
  return typeof cell === 'string' && FORMULA_START.test(cell) ? `${FORMULA_GUARD}${cell}` : cell;
}
type TimeFormat = (time: Date | null) => string;

export function timeFormatter(useUtc: boolean, timeZone: string): TimeFormat {
  if (useUtc || !isTimeZone(timeZone)) {
    return (time) => (time ? time.toISOString().replace(/\.\d{3}Z$/, 'Z') : '');
  }
  return (time) => (time ? format(new TZDate(time.getTime(), timeZone), "yyyy-MM-dd'T'HH:mm:ssxxx") : '');
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

interface ExportSpec {
  organizationId: string;
  start: Date | null;
  end: Date | null;
  options: ExportOptions;
  time: TimeFormat;
}

interface CsvTable {
  columns: string[];
  /** How many data rows the table will hold (part 2 §4 progress), asked before the rows; null: unknown. */
  total?: () => Promise<number | null>;
  rows: AsyncIterable<Cell[]>;
}

/** A query whose rows are read once, by `total` or `rows`, whichever asks first. */
function loadOnce<T>(load: () => PromiseLike<T[]>): () => Promise<T[]> {
  let result: Promise<T[]> | null = null;
  return () => (result ??= Promise.resolve(load()));
}

/** A range condition on `column`: from `start` (inclusive) to `end` (exclusive), each when given. */
function inRange(column: Parameters<typeof gte>[0], start: Date | null, end: Date | null): SQL {
  const parts: SQL[] = [];
  if (start) parts.push(gte(column, start));
  if (end) parts.push(lt(column, end));
  return parts.length ? and(...parts)! : sql`true`;
}

async function* fromArray<T>(rows: readonly T[], map: (row: T) => Cell[]): AsyncIterable<Cell[]> {
  for (const row of rows) yield map(row);
}

function incidentTable(db: Db, spec: ExportSpec): CsvTable {
  const { thing_uuids: ids, include_no_thing_il: includeNoThing } = spec.options;
  const assetCount = sql<number>`count(${things.id})::int`;
  const withAsset = ids.length ? sql`bool_or(${inArray(things.id, ids)})` : sql`count(${things.id}) > 0`;
  const keep = includeNoThing ? sql`(${withAsset} or count(${things.id}) = 0)` : withAsset;
  const query = db
    .select({
      location: locations,
      assetIds: sql<string>`coalesce(string_agg(${things.haasId}, ';' order by ${things.haasId}), '')`,
      assetNames: sql<string>`coalesce(string_agg(coalesce(${things.nickname}, ${things.haasId}), ';' order by ${things.haasId}), '')`,
      assetCount,
    })
    .from(locations)
    .leftJoin(locationThings, eq(locationThings.locationId, locations.id))
    .leftJoin(things, eq(things.id, locationThings.thingId))
    .where(
      and(
        eq(locations.organizationId, spec.organizationId),
        isNull(locations.deletedAt),
        inRange(locations.startTime, spec.start, spec.end),
      ),
    )
    .groupBy(locations.id)
    .having(keep)
    .orderBy(asc(locations.startTime), asc(locations.id));
  const result = loadOnce(async () => {
    const rows = await query;
    const extras = await incidentNotes(
      db,
      rows.map((row) => row.location.id),
      spec.time,
    );
    return rows.map((row) => ({ ...row, ...(extras.get(row.location.id) ?? { notes: '', notesCount: 0 }) }));
  });
  const acknowledgers = loadOnce(async () => {
    const ids = [...new Set((await result()).flatMap((row) => (row.location.acknowledgedBy ? [row.location.acknowledgedBy] : [])))];
    return ids.length === 0
      ? []
      : db.select({ id: users.id, firstname: users.firstname, lastname: users.lastname }).from(users).where(inArray(users.id, ids));
  });
  return {
    total: async () => (await result()).length,
    columns: [
      'incident_id',
      'external_id',
      'name',
      'street',
      'lat',
      'lng',
      'start_time',
      'end_time',
      'is_active',
      'alert_message',
      'asset_ids',
      'asset_names',
      'acknowledged_at',
      'acknowledged_by',
      'notes_count',
      'notes',
    ],
    rows: (async function* () {
      const names = new Map((await acknowledgers()).map((person) => [person.id, userName(person)]));
      yield* fromArray(await result(), ({ location: l, assetIds, assetNames, notes, notesCount }) => [
        l.id,
        l.externalId,
        l.displayName,
        l.street,
        l.lat,
        l.lng,
        spec.time(l.startTime),
        spec.time(l.endTime),
        l.isActive,
        l.alertMessage,
        assetIds,
        assetNames,
        spec.time(l.acknowledgedAt),
        l.acknowledgedBy ? (names.get(l.acknowledgedBy) ?? '') : '',
        notesCount,
        notes,
      ]);
    })(),
  };
}

/** Each incident's notes as one cell, oldest first, a line each: 'time author: text'. */
async function incidentNotes(
  db: Db,
  locationIds: readonly string[],
  time: TimeFormat,
): Promise<Map<string, { notes: string; notesCount: number }>> {
  if (locationIds.length === 0) return new Map();
  const out = new Map<string, { lines: string[] }>();
  const rows = await db
    .select({
      locationId: locationNotes.locationId,
      text: locationNotes.text,
      createdAt: locationNotes.createdAt,
      firstname: users.firstname,
      lastname: users.lastname,
    })
    .from(locationNotes)
    .leftJoin(users, eq(users.id, locationNotes.authorId))
    .where(inArray(locationNotes.locationId, [...locationIds]))
    .orderBy(asc(locationNotes.createdAt), asc(locationNotes.id));
  for (const row of rows) {
    const author = row.firstname !== null && row.lastname !== null ? userName({ firstname: row.firstname, lastname: row.lastname }) : '';
    const entry = out.get(row.locationId) ?? { lines: [] };
    entry.lines.push(`${time(row.createdAt)} ${author}: ${row.text}`);
    out.set(row.locationId, entry);
  }
  return new Map([...out].map(([id, entry]) => [id, { notes: entry.lines.join('\n'), notesCount: entry.lines.length }]));
}

function pointTable(db: Db, spec: ExportSpec): CsvTable {
  return {
    // One count over the (thing, time) index before the pages: the progress bar's total.
    total: async () => {
      if (spec.options.thing_uuids.length === 0) return 0;
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(points)
        .where(and(inArray(points.thingId, spec.options.thing_uuids), inRange(points.timestamp, spec.start, spec.end)));
      return Number(row?.count ?? 0);
    },
    columns: ['asset_id', 'asset_name', 'timestamp', 'lat', 'lng', 'speed', 'course', 'accuracy', 'run_id'],
    rows: (async function* () {
      // part 2 §5: a point export names at least one asset (checked when it was requested).
      if (spec.options.thing_uuids.length === 0) return;
      const assets = await db
        .select({ id: things.id, haasId: things.haasId, nickname: things.nickname })
        .from(things)
        .where(inArray(things.id, spec.options.thing_uuids))
        .orderBy(asc(things.haasId));
      for (const asset of assets) {
        let after: { time: Date; id: number } | null = null;
        for (;;) {
          const page: (typeof points.$inferSelect)[] = await db
            .select()
            .from(points)
            .where(
              and(
                eq(points.thingId, asset.id),
                inRange(points.timestamp, spec.start, spec.end),
                after ? or(gt(points.timestamp, after.time), and(eq(points.timestamp, after.time), gt(points.id, after.id))) : undefined,
              ),
            )
            .orderBy(asc(points.timestamp), asc(points.id))
            .limit(POINT_PAGE);
          for (const p of page) {
            yield [
              asset.haasId,
              asset.nickname ?? asset.haasId,
              spec.time(p.timestamp),
              p.lat,
              p.lng,
              p.speed,
              p.course,
              p.accuracy,
              p.runId,
            ];
          }
          const last = page[page.length - 1];
          if (!last || page.length < POINT_PAGE) break;
          after = { time: last.timestamp, id: last.id };
        }
      }
    })(),
  };
}

function thingTable(db: Db, spec: ExportSpec): CsvTable {
  const ids = spec.options.thing_uuids;
  const query = db
    .select({ thing: things, type: thingTypes.displayName, subtype: thingSubtypes.displayName })
    .from(things)
    .innerJoin(thingTypes, eq(thingTypes.id, things.thingTypeId))
    .leftJoin(thingSubtypes, eq(thingSubtypes.id, things.thingSubtypeId))
    .where(and(eq(things.organizationId, spec.organizationId), isNull(things.deletedAt), ids.length ? inArray(things.id, ids) : undefined))
    .orderBy(asc(things.haasId));
  const result = loadOnce(() => query);
  return {
    total: async () => (await result()).length,
    columns: [
      'asset_id',
      'name',
      'type',
      'subtype',
      'vin_number',
      'license_plate_number',
      'registry_number',
      'in_service',
      'lat',
      'lng',
      'last_heartbeat',
      'created_at',
    ],
    rows: (async function* () {
      yield* fromArray(await result(), ({ thing: t, type, subtype }) => [
        t.haasId,
        t.nickname,
        type,
        subtype,
        t.vinNumber,
        t.licensePlateNumber,
        t.registryNumber,
        t.inService,
        t.lat,
        t.lng,
        spec.time(t.heartbeatAt),
        spec.time(t.createdAt),
      ]);
    })(),
  };
}

function closureTable(db: Db, spec: ExportSpec): CsvTable {
  const { thing_uuids: ids, closures_to_include: kinds } = spec.options;
  const chosen = or(
    ids.length ? inArray(closures.thingId, ids) : undefined,
    kinds.length ? inArray(closures.closureType, kinds) : undefined,
  );
  // Active at some time in the range: began (or was created active) before its end, ended after its start.
  const began = sql`coalesce(${closures.startTime}, ${closures.lastStartTime}, ${closures.createdAt})`;
  const overlaps = and(
    spec.end ? sql`${began} < ${spec.end}` : undefined,
    spec.start ? or(isNull(closures.endTime), gte(closures.endTime, spec.start)) : undefined,
  );
  const query = db
    .select({ closure: closures, haasId: things.haasId, nickname: things.nickname })
    .from(closures)
    .leftJoin(things, eq(things.id, closures.thingId))
    .where(and(eq(closures.organizationId, spec.organizationId), isNull(closures.deletedAt), chosen ?? sql`false`, overlaps))
    .orderBy(asc(began), asc(closures.id));
  const result = loadOnce(() => query);
  return {
    total: async () => (await result()).length,
    columns: [
      'closure_id',
      'closure_type',
      'description',
      'is_active',
      'asset_id',
      'asset_name',
      'start_time',
      'end_time',
      'last_start_time',
      'street_start',
      'street_end',
      'direction',
      'impacted_lanes',
      'alert_message',
      'wzdx_id',
    ],
    rows: (async function* () {
      yield* fromArray(await result(), ({ closure: c, haasId, nickname }) => [
        c.id,
        c.closureType,
        c.description,
        c.isActive,
        haasId,
        nickname ?? haasId,
        spec.time(c.startTime),
        spec.time(c.endTime),
        spec.time(c.lastStartTime),
        c.streetStart,
        c.streetEnd,
        c.direction,
        c.impactedLanes.join(';'),
        c.alertMessage,
        c.externalId,
      ]);
    })(),
  };
}

const TABLES = { incident: incidentTable, point: pointTable, thing: thingTable, closure: closureTable } as const;

/** Where a running export reports its rows written (part 2 §4 progress), at most every `everyMs` of real time. */
export interface CsvProgress {
  everyMs: number;
  report(rowsWritten: number): Promise<void>;
}

/** A running export writes its progress to its row this often (the list polls every EXPORTS_POLL_MS). */
export const EXPORT_PROGRESS_EVERY_MS = 500;

/**
 * Streams the table through csv-stringify into a new file; answers the number of data rows. Past
 * `maxRows` rows it stops with EXPORT_TOO_LARGE_REASON (a JobError: not retried) and keeps no file.
 * With `progress`, the rows written so far are reported while it runs (time-throttled, so a fast
 * export costs no extra writes per row) and once at the end.
 */
export async function writeCsv(
  store: FileStore,
  fileId: string,
  table: CsvTable,
  maxRows: number = EXPORT_MAX_ROWS,
  progress?: CsvProgress,
): Promise<number> {
  const writer = store.createWriter(fileId);
  const csv = stringify({
    header: true,
    columns: table.columns,
    cast: { boolean: (value) => (value ? 'true' : 'false'), date: (value) => value.toISOString() },
  });
  const written = pipeline(csv, writer.stream);
  let count = 0;
  let reportedAt = performance.now();
  try {
    for await (const row of table.rows) {
      if (count >= maxRows) throw new JobError(EXPORT_TOO_LARGE_REASON);
      // The one place cells are written: every export type's text is neutralized here.
      if (!csv.write(row.map(neutralizeCsvCell))) await once(csv, 'drain');
      count += 1;
      if (progress && performance.now() - reportedAt >= progress.everyMs) {
        await progress.report(count);
        reportedAt = performance.now();
      }
    }
    csv.end();
    await written;
    await writer.commit();
    await progress?.report(count);
    return count;
  } catch (error) {
    csv.destroy();
    await written.catch(() => undefined);
    await writer.abort();
    throw error;
  }
}

/** Runs one export: requested → in_progress → completed (file written) or an error for the runner. */
export async function runExport(deps: JobDeps, exportId: string): Promise<void> {
  const { db } = deps;
  const [row] = await db
    .select({ export: exports, timeZone: organizations.timezone })
    .from(exports)
    .innerJoin(organizations, eq(organizations.id, exports.organizationId))
    .where(eq(exports.id, exportId))
    .limit(1);
  // Deleted before its turn, or already done (a retried tick): nothing to do.
  if (!row || row.export.deletedAt || row.export.status === 'completed') return;
  const exp = row.export;
  const store = createFileStore(deps.config.dataDir);
  // The file's id is kept from the start, so a process that dies mid-file leaves a row that names
  // its partial file, and the recovery at the next start removes exactly that (exportJob.interrupted).
  const fileId = store.newId('csv');
  await db
    .update(exports)
    .set({ status: 'in_progress', error: null, fileId, rowsWritten: 0, rowsTotal: null, startedAt: deps.now() })
    .where(eq(exports.id, exp.id));

  const options = exportOptionsSchema.safeParse(exp.options);
  if (!options.success) throw new JobError('The export request is incomplete');
  const spec: ExportSpec = {
    organizationId: exp.organizationId,
    start: exp.exportStartTime,
    end: exp.exportEndTime,
    options: options.data,
    time: timeFormatter(exp.useUtc, row.timeZone),
  };
  const table = TABLES[exp.exportType](db, spec);
  // part 2 §4 progress: the total first (counted, capped at what a file may hold), then the rows as they are written.
  const total = table.total ? await table.total() : null;
  if (total !== null) {
    await db
      .update(exports)
      .set({ rowsTotal: Math.min(total, EXPORT_MAX_ROWS) })
      .where(eq(exports.id, exp.id));
  }
  await writeCsv(store, fileId, table, EXPORT_MAX_ROWS, {
    everyMs: deps.exportProgressEveryMs ?? EXPORT_PROGRESS_EVERY_MS,
    // Rows that arrived after the count are written too: the total grows with them, so the
    // progress never reads more than all of it (rows_written ≤ rows_total).
    report: async (rowsWritten) => {
      await db
        .update(exports)
        .set({
          rowsWritten,
          rowsTotal: sql`case when ${exports.rowsTotal} is null then null else greatest(${exports.rowsTotal}, ${rowsWritten}::int) end`,
        })
        .where(eq(exports.id, exp.id));
    },
  });
  const [updated] = await db
    .update(exports)
    .set({ status: 'completed', fileId, completedAt: deps.now(), error: null })
    .where(and(eq(exports.id, exp.id), isNull(exports.deletedAt)))
    .returning({ id: exports.id });
  // Deleted while it ran: the file has no owner.
  if (!updated) await store.remove(fileId);
}

export const exportJob: JobHandler = {
  async run(deps, payload) {
    const parsed = payloadSchema.safeParse(payload);
    if (!parsed.success) throw new JobError('The export job names no export');
    await runExport(deps, parsed.data.exportId);
  },
  async failed(deps, payload, reason) {
    const parsed = payloadSchema.safeParse(payload);
    if (!parsed.success) return;
    const [row] = await deps.db.select({ fileId: exports.fileId }).from(exports).where(eq(exports.id, parsed.data.exportId)).limit(1);
    const [failed] = await deps.db
      .update(exports)
      .set({ status: 'errored', error: reason, completedAt: null, fileId: null })
      .where(and(eq(exports.id, parsed.data.exportId), sql`${exports.status} <> 'completed'`))
      .returning({ id: exports.id });
    // An errored export has no file: whatever part of one was written goes.
    if (failed && row?.fileId) await createFileStore(deps.config.dataDir).removeWithPartials(row.fileId);
  },
  /**
   * The process running this export died (part 2 §3 statuses): it goes back to 'requested', since
   * the crash was not the request's fault and the job writes a fresh file each time; the runner
   * queues the job again (or fails it, which makes the export 'errored', when its attempts are used
   * up: a crash loop ends). Its partial file goes, so nothing half-written stays in the files folder.
   */
  async interrupted(deps, payload) {
    const parsed = payloadSchema.safeParse(payload);
    if (!parsed.success) return;
    const [row] = await deps.db.select({ fileId: exports.fileId }).from(exports).where(eq(exports.id, parsed.data.exportId)).limit(1);
    const [requeued] = await deps.db
      .update(exports)
      .set({ status: 'requested', fileId: null, error: null, completedAt: null })
      .where(and(eq(exports.id, parsed.data.exportId), eq(exports.status, 'in_progress')))
      .returning({ id: exports.id });
    if (requeued && row?.fileId) await createFileStore(deps.config.dataDir).removeWithPartials(row.fileId);
  },
};
