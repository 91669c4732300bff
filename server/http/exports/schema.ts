import type { Readable } from 'node:stream';
import { z } from 'zod';
import { CLIENT_ERROR_CODES } from '../../../src/domain/errors';
import { CLOSURE_EXPORT_INCLUDES, EXPORT_TYPES, exportWireSchema, type ExportForm } from '../../../src/domain/export';
import { isInputTime, TIME_RANGE_MESSAGE } from '../../../src/domain/validation/boundary';
import { exportFormSchema } from '../../../src/domain/validation/reports';
import { HttpError, parseForm, unprocessable } from '../../core/errors';
import { pathIds } from '../route-validation';

/** The export calls' bodies, answers and texts (part 2 §3 "Export request payload", §7 calls, §8 texts). */

/** Wire ids are uuids; a title is at most this long (the spec gives none). */
const TITLE_MAX = 200;
const THINGS_MAX = 1000;
const TIME_MAX_CHARS = 40;

const wireTime = z.string().max(TIME_MAX_CHARS).nullish();

/** POST /organization/export body (part 2 §3 "Export request payload"). */
export const exportRequestSchema = z.object({
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

type ExportRequest = z.output<typeof exportRequestSchema>;

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

/** A wire time of the request as epoch ms (none: null), or 422 naming the field. */
function wireMs(field: string, value: string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw unprocessable(`${field}: must be an ISO time`, 'invalid', { fields: { [field]: 'must be an ISO time' } });
  if (!isInputTime(ms)) throw unprocessable(`${field}: ${TIME_RANGE_MESSAGE}`, 'invalid', { fields: { [field]: TIME_RANGE_MESSAGE } });
  return ms;
}

/**
 * A request's times as epoch ms (none: null), after the domain's export rules (part 2 §5), the
 * same the wizard runs; else 422 naming the wire field.
 */
export function validExport(body: ExportRequest, now: number): { startTime: number | null; endTime: number | null } {
  const startTime = wireMs('export_start_time', body.export_start_time);
  const endTime = wireMs('export_end_time', body.export_end_time);
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
  parseForm(exportFormSchema({ now }), values, WIRE_FIELDS);
  return { startTime, endTime };
}

/** What an export row keeps of the request (its options): the assets, and the incident or closure export's choices. */
export function exportOptions(body: ExportRequest, thingIds: readonly string[]): Record<string, unknown> {
  const options: Record<string, unknown> = { thing_uuids: thingIds };
  if (body.export_type === 'incident') options.include_no_thing_il = body.include_no_thing_il ?? false;
  if (body.export_type === 'closure') options.closures_to_include = [...new Set(body.closures_to_include ?? [])];
  return options;
}

/** An export's path: an id that is no uuid names none (404 'Export not found'). */
export const exportPath = pathIds(z.object({ id: z.uuid() }), 'Export');

/**
 * An export as the calls answer it: the domain's wire (src/domain/export.ts) with what was asked
 * for (the row's options, written only by POST /organization/export: the assets, and the incident
 * and closure export's choices).
 */
export const exportAnswer = exportWireSchema.extend({
  thing_uuids: z.array(z.string()).optional().meta({ description: 'The assets asked for (none: every asset).' }),
  include_no_thing_il: z.boolean().optional().meta({ description: 'An incident export: also the incidents without an asset.' }),
  closures_to_include: z
    .array(z.enum(CLOSURE_EXPORT_INCLUDES))
    .optional()
    .meta({ description: "A closure export: the closure kinds included besides the assets' closures." }),
});
/** A signed link to a completed export's file (GET /files/{fileId}, no bearer needed). */
export const fileLinkAnswer = z.object({ file_url: z.string().meta({ description: 'A signed, expiring link to the file.' }) });
/** A file's bytes: a stream, which bypasses the serializer; documented as binary. */
const fileBytes = () => z.custom<Readable>().meta({ type: 'string', format: 'binary' });
/** A download: the CSV of an export or the PDF of a monthly report, as an attachment. */
export const fileAnswer = {
  description: 'The file, as an attachment named after the export or report',
  content: { 'text/csv': { schema: fileBytes() }, 'application/pdf': { schema: fileBytes() } },
};

/** 429: the request is fine, there are too many of them at once (RFC 6585 §4). */
const HTTP_TOO_MANY_REQUESTS = 429;
export const exportLimit = (message: string) => new HttpError(HTTP_TOO_MANY_REQUESTS, CLIENT_ERROR_CODES.exportLimit, message);

/** part 2 §8 "Delete export | not creator | 'Only the export creator can delete'". */
export const NOT_CREATOR_MESSAGE = 'Only the export creator can delete';

/** What a download name may keep; anything else becomes '_'. */
export const FILE_NAME_UNSAFE = /[^A-Za-z0-9 ._()-]+/g;
