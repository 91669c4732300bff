import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CLIENT_ERROR_CODES, EXPORT_LIMIT_TEXT } from '../../../src/domain/errors';
import { canDeleteExport } from '../../../src/domain/export';
import { areaCrud, section } from '../../../src/domain/permissions';
import { signedLinksFor } from '../../auth/signed-links';
import type { ServerDeps } from '../../deps';
import { FILE_KINDS, createFileStore, fileKind } from '../../files';
import { errorAnswer, forbidden, notFound, unprocessable } from '../../core/errors';
import { listOrgIds, orgIdsQuery, visibleOrganization } from '../organization-scope';
import { documentedObject } from '../route-validation';
import {
  countVisibleThings,
  deleteExport,
  exportToWire,
  findDownloadName,
  findVisibleExport,
  insertExport,
  isRequesterDeleted,
  listExports,
} from './repository';
import {
  exportAnswer,
  exportLimit,
  exportOptions,
  exportPath,
  exportRequestSchema,
  fileAnswer,
  FILE_NAME_UNSAFE,
  fileLinkAnswer,
  NOT_CREATOR_MESSAGE,
  validExport,
} from './schema';
import { deletedAnswer } from '../query';

/**
 * Exports (part 2 §7 "GET/POST /organization/export", "DELETE /organization/export/{id}",
 * "Export file link: same link path with is_downloadable=true") and the signed file download
 * ("the export file link by file id"; "a browser download cannot send a bearer header").
 *
 * Permissions (part 2 §6 exports row): listing, reading and the file link need any permission of
 * the row (view, read, create, delete, manage); creating needs create or manage. Delete is open to
 * the same row but only to the export's creator (part 2 §4, §6): anyone else gets 403 `not_creator`.
 */
export function exportRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const store = createFileStore(deps.config.dataDir);

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
      const rows = await listExports(db, orgIds);
      return rows.map(({ row, requesterDeleted }) => exportToWire(row, requesterDeleted));
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
      // The domain's export rules (part 2 §5), the same the wizard runs.
      const { startTime, endTime } = validExport(body, now.getTime());

      const org = await visibleOrganization(db, caller, body.organization_id);

      const thingIds = [...new Set(body.thing_uuids)];
      if (thingIds.length && (await countVisibleThings(db, caller.scope, org.id, thingIds)) !== thingIds.length) {
        throw unprocessable('thing_uuids: Asset not found', 'invalid', { fields: { thing_uuids: 'Asset not found' } });
      }

      const created = await insertExport(
        db,
        {
          organizationId: org.id,
          requestedBy: caller.userId,
          exportType: body.export_type,
          title: body.title.trim(),
          exportStartTime: startTime === null ? null : new Date(startTime),
          exportEndTime: endTime === null ? null : new Date(endTime),
          useUtc: body.use_utc,
          options: exportOptions(body, thingIds),
        },
        now,
      );
      if ('limit' in created) throw exportLimit(EXPORT_LIMIT_TEXT[created.limit]);
      return reply.code(201).send(exportToWire(created.row));
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
      const row = await findVisibleExport(db, request.caller.scope, request.params.id);
      if (!row) throw notFound('Export');
      const downloadable = (request.query as Record<string, unknown> | undefined)?.is_downloadable;
      if (downloadable !== 'true' && downloadable !== true) return exportToWire(row);
      // part 2 §8 'File not found': not completed yet, or the file is gone.
      if (row.status !== 'completed' || !row.fileId || !(await store.exists(row.fileId))) throw notFound('File');
      return { file_url: signedLinksFor(deps.config).sign(row.fileId, deps.now()) };
    },
  );

  api.delete(
    '/organization/export/:id',
    {
      config: { access: section('exports').anyOf },
      schema: {
        summary: 'Delete an export (its creator only)',
        params: exportPath,
        response: { 200: deletedAnswer, 404: errorAnswer },
      },
    },
    async (request) => {
      const { caller } = request;
      const row = await findVisibleExport(db, caller.scope, request.params.id);
      if (!row) throw notFound('Export');
      const viewer = { userId: caller.userId, organizationId: caller.scope.organizationId, permissions: caller.permissions };
      const requesterDeleted = await isRequesterDeleted(db, row.requestedBy);
      const exp = { requestedBy: row.requestedBy, requesterDeleted, orgId: row.organizationId };
      // part 2 §8 'Only the export creator can delete' (the tooltip of §4 ends with a period; the error does not).
      if (!canDeleteExport(exp, viewer)) {
        throw forbidden(NOT_CREATOR_MESSAGE, CLIENT_ERROR_CODES.notCreator);
      }
      await deleteExport(db, row.id, deps.now());
      return { id: row.id };
    },
  );

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
      const check = signedLinksFor(deps.config).verify(fileId, text(query.expires), text(query.signature), deps.now());
      if (check === 'expired') throw forbidden('The download link has expired', 'link_expired');
      if (check !== 'ok') throw forbidden('The download link is not valid', 'link_invalid');
      const kind = fileKind(fileId);
      const name = kind ? await findDownloadName(db, fileId) : null;
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
