import type { Readable } from 'node:stream';
import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CLIENT_ERROR_CODES, EXPORT_LIMIT_TEXT } from '../../src/domain/errors';
import {
  CLOSURE_EXPORT_INCLUDES,
  EXPORTS_RUNNING_PER_ORGANIZATION,
  EXPORTS_RUNNING_PER_USER,
  EXPORT_TYPES,
  canDeleteExport,
  exportWireSchema,
  type ExportForm,
  type ExportWire,
} from '../../src/domain/export';
import { areaCrud, section } from '../../src/domain/permissions';
import { isInputTime, TIME_RANGE_MESSAGE } from '../../src/domain/validation/boundary';
import { exportFormSchema } from '../../src/domain/validation/reports';
import type { Caller } from '../auth/context';
import { canSeeOrg, thingVisibleSql } from '../auth/scope';
import { signedLinksFor } from '../auth/signed-links';
import type { Db } from '../db/connection';
import { exports, monthlyReports, organizations, things, users } from '../db/schema';
import type { ServerDeps } from '../deps';
import { FILE_KINDS, createFileStore, fileKind } from '../files';
import { monthYearLabel } from '../../src/domain/time';
import { enqueueJob } from '../jobs/runner';
import { errorAnswer, forbidden, HttpError, notFound, parseForm, unprocessable } from '../core/errors';
import { listOrgIds, orgIdsQuery } from './organization-scope';
import { documentedObject, pathIds } from './route-validation';

/**
 * Exports (part 2 §7 "GET/POST /organization/export", "DELETE /organization/export/{id}",
 * "Export file link: same link path with is_downloadable=true") and the signed file download
 * ("the export file link by file id"; "a browser download cannot send a bearer header").
 *
 * Permissions (part 2 §6 exports row): listing, reading and the file link need any permission of
 * the row (view, read, create, delete, manage); creating needs create or manage. Delete is open to
 * the same row but only to the export's creator (part 2 §4, §6): anyone else gets 403 `not_creator`.
 */

/** Wire ids are uuids; a title is at most this long (the spec gives none). */
const TITLE_MAX = 200;
const THINGS_MAX = 1000;
const TIME_MAX_CHARS = 40;

const wireTime = z.string().max(TIME_MAX_CHARS).nullish();

/** POST /organization/export body (part 2 §3 "Export request payload"). */
const exportRequestSchema = z.object({
  export_type: z.enum(EXPORT_TYPES, { error: 'Required' }),
  title: z.string({ error: 'Required' }).max(TITLE_MAX, { error: `${TITLE_MAX} Max Characters` }),
  export_start_time: wireTime,
  export_end_time: wireTime,
  use_utc: z.boolean({ error: 'Required' }),
  organization_id: z.uuid({ error: 'must be a uuid' }),
  thing_uuids: z
    .array(z.uuid({ error: 'must be a uuid' }))
    .max(THINGS_MAX)
    .default([]),
  include_no_thing_il: z.boolean().optional(),
  closures_to_include: z.array(z.enum(CLOSURE_EXPORT_INCLUDES)).max(CLOSURE_EXPORT_INCLUDES.length).optional(),
});

/** The domain form's field names (ExportForm) → the wire names, so a 422 names the field the client sent. */
const WIRE_FIELDS: Readonly<Record<keyof ExportForm, string>> = {
  exportType: 'export_type',
  title: 'title',
  useUtc: 'use_utc',
  organizationId: 'organization_id',
  startTime: 'export_start_time',
  endTime: 'export_end_time',
  thingUuids: 'thing_uuids',
  includeNoThingIl: 'include_no_thing_il',
  closuresToInclude: 'closures_to_include',
};

function wireMs(field: string, value: string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw unprocessable(`${field}: must be an ISO time`, 'invalid', { fields: { [field]: 'must be an ISO time' } });
  if (!isInputTime(ms)) throw unprocessable(`${field}: ${TIME_RANGE_MESSAGE}`, 'invalid', { fields: { [field]: TIME_RANGE_MESSAGE } });
  return ms;
}

const iso = (time: Date | null): string | null => (time ? time.toISOString() : null);

/**
 * An export as the calls answer it: the domain's wire (src/domain/export.ts) with what was asked
 * for (the row's options, written only by POST /organization/export: the assets, and the incident
 * and closure export's choices).
 */
const exportAnswer = exportWireSchema.extend({
  thing_uuids: z.array(z.string()).optional().meta({ description: 'The assets asked for (none: every asset).' }),
  include_no_thing_il: z.boolean().optional().meta({ description: 'An incident export: also the incidents without an asset.' }),
  closures_to_include: z
    .array(z.enum(CLOSURE_EXPORT_INCLUDES))
    .optional()
    .meta({ description: "A closure export: the closure kinds included besides the assets' closures." }),
});
/** A signed link to a completed export's file (GET /files/{fileId}, no bearer needed). */
const fileLinkAnswer = z.object({ file_url: z.string().meta({ description: 'A signed, expiring link to the file.' }) });
/** A file's bytes: a stream, which bypasses the serializer; documented as binary. */
const fileBytes = () => z.custom<Readable>().meta({ type: 'string', format: 'binary' });
/** A download: the CSV of an export or the PDF of a monthly report, as an attachment. */
const fileAnswer = {
  description: 'The file, as an attachment named after the export or report',
  content: { 'text/csv': { schema: fileBytes() }, 'application/pdf': { schema: fileBytes() } },
};

type ExportRow = typeof exports.$inferSelect;

/** The export wire of src/domain/export.ts, plus what was asked for and an errored export's reason. */
function toWire(row: ExportRow, requesterDeleted = false): ExportWire & Record<string, unknown> {
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

/** Statuses of an export that still has work ahead (part 2 §3; the In-Progress tab). */
const RUNNING_STATUSES = ['requested', 'in_progress'] as const;

/**
 * Refuses a new export while the user, or their organization, has as many running as allowed
 * (EXPORTS_RUNNING_PER_USER, EXPORTS_RUNNING_PER_ORGANIZATION; OWASP API4:2023 "Unrestricted
 * Resource Consumption"). The user's and the organization's rows are locked first (always in that
 * order), so two requests at once are counted one after the other and cannot both slip in.
 * A deleted export no longer counts: a waiting one is dropped by its job at once.
 */
async function requireExportCapacity(tx: Db, userId: string, organizationId: string): Promise<void> {
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
  if ((counts?.user ?? 0) >= EXPORTS_RUNNING_PER_USER) throw exportLimit(EXPORT_LIMIT_TEXT.user);
  if ((counts?.organization ?? 0) >= EXPORTS_RUNNING_PER_ORGANIZATION) throw exportLimit(EXPORT_LIMIT_TEXT.organization);
}

/** 429: the request is fine, there are too many of them at once (RFC 6585 §4). */
const HTTP_TOO_MANY_REQUESTS = 429;
const exportLimit = (message: string) => new HttpError(HTTP_TOO_MANY_REQUESTS, CLIENT_ERROR_CODES.exportLimit, message);

/** part 2 §8 "Delete export | not creator | 'Only the export creator can delete'". */
const NOT_CREATOR_MESSAGE = 'Only the export creator can delete';

const FILE_NAME_UNSAFE = /[^A-Za-z0-9 ._()-]+/g;

export function exportRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  /** An export's path: an id that is no uuid names none (404 'Export not found'). */
  const exportPath = pathIds(z.object({ id: z.uuid() }), 'Export');
  const store = createFileStore(deps.config.dataDir);

  /** A visible, not deleted export, else 404 (another organization's export is "not found"). */
  async function findExport(caller: Caller, id: string): Promise<ExportRow> {
    const [row] = await db
      .select()
      .from(exports)
      .where(and(eq(exports.id, id), isNull(exports.deletedAt)))
      .limit(1);
    if (!row || !canSeeOrg(caller.scope, row.organizationId)) throw notFound('Export');
    return row;
  }

  // org_ids[] is read by the shared list helper (its 422 and 404): documented only.
  api.get(
    '/organization/export',
    {
      config: { access: section('exports').anyOf },
      schema: {
        summary: "The exports of the caller's organizations, newest first",
        querystring: documentedObject({ ...orgIdsQuery }),
        response: { 200: z.array(exportAnswer), 404: errorAnswer, 422: errorAnswer },
      },
    },
    async (request) => {
      // part 2 §8 "Lists and organization: 404 'Organization not found'", as the other lists answer.
      const orgIds = await listOrgIds(db, request.caller, request.query);
      if (orgIds !== null && orgIds.length === 0) return [];
      const rows = await db
        .select({ export: exports, requesterDeletedAt: users.deletedAt })
        .from(exports)
        .leftJoin(users, eq(users.id, exports.requestedBy))
        .where(and(isNull(exports.deletedAt), orgIds === null ? undefined : inArray(exports.organizationId, orgIds)))
        .orderBy(desc(exports.requestedAt), desc(exports.id));
      return rows.map((row) => toWire(row.export, row.requesterDeletedAt !== null));
    },
  );

  api.post(
    '/organization/export',
    {
      config: { access: (caller) => areaCrud(caller.permissions, 'export').canCreate },
      schema: {
        summary: 'Request a CSV export; a job writes the file',
        body: exportRequestSchema,
        response: { 201: exportAnswer, 404: errorAnswer, 429: errorAnswer },
      },
    },
    async (request, reply) => {
      const { caller, body } = request;
      const now = deps.now();
      const startTime = wireMs('export_start_time', body.export_start_time);
      const endTime = wireMs('export_end_time', body.export_end_time);

      // The domain's export rules (part 2 §5), the same the wizard runs.
      const values: ExportForm = {
        exportType: body.export_type,
        title: body.title,
        useUtc: body.use_utc,
        organizationId: body.organization_id,
        startTime,
        endTime,
        thingUuids: body.thing_uuids,
        includeNoThingIl: body.include_no_thing_il ?? false,
        closuresToInclude: body.closures_to_include ?? [],
      };
      parseForm(exportFormSchema({ now: now.getTime() }), values, WIRE_FIELDS);

      const [org] = await db
        .select({ id: organizations.id })
        .from(organizations)
        .where(and(eq(organizations.id, body.organization_id), isNull(organizations.deletedAt)))
        .limit(1);
      if (!org || !canSeeOrg(caller.scope, org.id)) throw notFound('Organization');

      const thingIds = [...new Set(body.thing_uuids)];
      if (thingIds.length) {
        const found = await db
          .select({ id: things.id })
          .from(things)
          .where(and(inArray(things.id, thingIds), isNull(things.deletedAt), thingVisibleSql(caller.scope, [org.id])));
        if (found.length !== thingIds.length) {
          throw unprocessable('thing_uuids: Asset not found', 'invalid', { fields: { thing_uuids: 'Asset not found' } });
        }
      }

      const options: Record<string, unknown> = { thing_uuids: thingIds };
      if (body.export_type === 'incident') options.include_no_thing_il = body.include_no_thing_il ?? false;
      if (body.export_type === 'closure') options.closures_to_include = [...new Set(body.closures_to_include ?? [])];

      const created = await db.transaction(async (tx) => {
        await requireExportCapacity(tx, caller.userId, org.id);
        const [row] = await tx
          .insert(exports)
          .values({
            organizationId: org.id,
            requestedBy: caller.userId,
            exportType: body.export_type,
            title: body.title.trim(),
            exportStartTime: startTime === null ? null : new Date(startTime),
            exportEndTime: endTime === null ? null : new Date(endTime),
            useUtc: body.use_utc,
            options,
            requestedAt: now,
            status: 'requested',
          })
          .returning();
        if (!row) throw new Error('export insert returned nothing');
        await enqueueJob(tx, 'export', { exportId: row.id }, now);
        return row;
      });
      return reply.code(201).send(toWire(created));
    },
  );

  // is_downloadable is read as it is ('true' or true asks for the link): documented only.
  api.get(
    '/organization/export/:id',
    {
      config: { access: section('exports').anyOf },
      schema: {
        summary: 'An export, or with is_downloadable=true a signed link to its file',
        params: exportPath,
        querystring: documentedObject({
          is_downloadable: z.string().optional().meta({
            description:
              "'true': a signed link to the export's file ({ file_url }; 404 'File not found' until it is written); any other value or none: the export.",
          }),
        }),
        response: { 200: z.union([exportAnswer, fileLinkAnswer]), 404: errorAnswer },
      },
    },
    async (request) => {
      const { caller } = request;
      const row = await findExport(caller, request.params.id);
      const downloadable = (request.query as Record<string, unknown> | undefined)?.is_downloadable;
      if (downloadable !== 'true' && downloadable !== true) return toWire(row);
      // part 2 §8 'File not found': not completed yet, or the file is gone.
      if (row.status !== 'completed' || !row.fileId || !(await store.exists(row.fileId))) throw notFound('File');
      return { file_url: signedLinksFor(deps.config.dataDir).sign(row.fileId, deps.now()) };
    },
  );

  api.delete(
    '/organization/export/:id',
    {
      config: { access: section('exports').anyOf },
      schema: {
        summary: 'Delete an export (its creator only)',
        params: exportPath,
        response: { 200: z.object({ id: z.string() }), 404: errorAnswer },
      },
    },
    async (request) => {
      const { caller } = request;
      const row = await findExport(caller, request.params.id);
      const [requester] = await db.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, row.requestedBy)).limit(1);
      const viewer = { userId: caller.userId, organizationId: caller.scope.organizationId, permissions: caller.permissions };
      const exp = { requestedBy: row.requestedBy, requesterDeleted: !requester || requester.deletedAt !== null, orgId: row.organizationId };
      // part 2 §8 'Only the export creator can delete' (the tooltip of §4 ends with a period; the error does not).
      if (!canDeleteExport(exp, viewer)) {
        throw forbidden(NOT_CREATOR_MESSAGE, CLIENT_ERROR_CODES.notCreator);
      }
      await db.update(exports).set({ deletedAt: deps.now() }).where(eq(exports.id, row.id));
      return { id: row.id };
    },
  );

  /** A readable download name: the export's title, or the report's organization and month. */
  async function downloadName(fileId: string): Promise<string | null> {
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

  /** GET /files/{fileId}?expires&signature: no bearer; the signature is the permission. */
  // expires and signature are checked by the signed link itself (403 link_expired or link_invalid): documented only.
  api.get(
    '/files/:fileId',
    {
      schema: {
        summary: 'Download an export or report file by its signed link (no sign-in)',
        description: 'A link past its time answers 403 `link_expired`; a link not signed for the file, 403 `link_invalid`.',
        params: z.object({ fileId: z.string() }),
        querystring: documentedObject({
          expires: z
            .string()
            .meta({ description: 'When the link ends, in epoch seconds, as the link was signed (past: 403 link_expired).' }),
          signature: z.string().meta({ description: 'The signature of the file id and expires (absent or wrong: 403 link_invalid).' }),
        }),
        response: { 200: fileAnswer, 403: errorAnswer, 404: errorAnswer },
      },
    },
    async (request, reply) => {
      const { fileId } = request.params;
      const query = (request.query ?? {}) as Record<string, unknown>;
      const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
      const check = signedLinksFor(deps.config.dataDir).verify(fileId, text(query.expires), text(query.signature), deps.now());
      if (check === 'expired') throw forbidden('The download link has expired', 'link_expired');
      if (check !== 'ok') throw forbidden('The download link is not valid', 'link_invalid');
      const kind = fileKind(fileId);
      const name = kind ? await downloadName(fileId) : null;
      const file = kind && name ? await store.open(fileId) : null;
      if (!kind || !name || !file) throw notFound('File');
      const safe = name.replace(FILE_NAME_UNSAFE, '_').trim() || fileId;
      return reply
        .header('content-type', FILE_KINDS[kind].contentType)
        .header('content-length', file.size)
        .header('content-disposition', `attachment; filename="${safe}"; filename*=UTF-8''${encodeURIComponent(name)}`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.stream);
    },
  );
}
