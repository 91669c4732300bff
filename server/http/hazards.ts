import { and, asc, eq, gte, inArray, isNull, lte } from 'drizzle-orm';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HAZARD_SEVERITIES, HAZARD_TYPES, type HazardSeverity, type HazardType } from '../../src/domain/constants';
import { truncateCoordinate } from '../../src/domain/geometry';
import { section, type Permission } from '../../src/domain/permissions';
import { inputDateTime } from '../../src/domain/validation/boundary';
import { latitudeField, longitudeField } from '../../src/domain/validation/fields';
import { MESSAGES } from '../../src/domain/validation/messages';
import { hazardReportSchema } from '../../src/domain/validation/reports';
import {
  hazardCountWireSchema,
  hazardReportWireSchema,
  hazardWireSchema,
  type HazardReportWire,
  type HazardWire,
} from '../../src/domain/hazard';
import type { Caller } from '../auth/context';
import { thingVisibleSql } from '../auth/scope';
import type { Db } from '../db/connection';
import { hazards, organizations, things } from '../db/schema';
import type { ServerDeps } from '../deps';
import { listOrgIds, orgAccess, orgIdsQuery, visibleOrganization } from './organization-scope';
import { errorAnswer, forbidden, parse, parseForm, unprocessable } from '../core/errors';
import { listParam, listValues, requiredTimeValue, sinceParam } from './query';
import { documentedObject } from './route-validation';

/**
 * Hazards (part 2 §2 Hazards: "a report of hazards by type and severity", §5 Hazard report; the
 * spec shows no path, so these are designed in the style of the others and documented in the API
 * README):
 *
 * - GET /organization/hazards?org_ids[]&start_time&end_time&types[]&severities[]&all_types — the
 *   hazards reported in a past range of at most 24 h, with counts by type and severity; needs
 *   hazard:read (the hazards section). At least one type, or `all_types=true` ('Must select at
 *   least 1 type'); no severity means every severity.
 * - POST /organization/hazards — a device (or the simulator) reports a hazard. Reporting writes
 *   fleet data, so it needs thing:manage or haas:manage, as the other writes about assets do.
 */

const HAZARD_VIEW: readonly Permission[] = section('hazards').anyOf;
const HAZARD_REPORT: readonly Permission[] = ['thing:manage', 'haas:manage'];

export { hazardCountWireSchema, hazardReportWireSchema, hazardWireSchema };
export type { HazardReportWire, HazardWire };

const REPORT_WIRE_NAMES = {
  allTypes: 'all_types',
  types: 'types[]',
  severities: 'severities[]',
  startTime: 'start_time',
  endTime: 'end_time',
};

const hazardBody = z.object({
  hazard_type: z.enum(HAZARD_TYPES),
  severity: z.enum(HAZARD_SEVERITIES),
  lat: latitudeField(),
  lng: longitudeField(),
  thing_id: z.uuid({ error: 'must be a uuid' }).nullish(),
  organization_id: z.uuid({ error: 'must be a uuid' }).nullish(),
  reported_at: inputDateTime('must be an ISO 8601 time').nullish(),
});

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

function selectHazards(db: Db, where: ReturnType<typeof and>) {
  return db
    .select({ hazard: hazards, organizationName: organizations.name, haasId: things.haasId, nickname: things.nickname })
    .from(hazards)
    .innerJoin(organizations, eq(organizations.id, hazards.organizationId))
    .leftJoin(things, eq(things.id, hazards.thingId))
    .where(where)
    .orderBy(asc(hazards.reportedAt), asc(hazards.id));
}

/** Counts per type (in HAZARD_TYPES order, types with none left out) and severity. */
export function hazardCounts(list: readonly Pick<HazardWire, 'hazard_type' | 'severity'>[]): HazardReportWire['counts'] {
  const counts = new Map<HazardType, Record<HazardSeverity, number>>();
  for (const hazard of list) {
    const row = counts.get(hazard.hazard_type) ?? { low: 0, medium: 0, high: 0 };
    row[hazard.severity] += 1;
    counts.set(hazard.hazard_type, row);
  }
  return HAZARD_TYPES.flatMap((type) => {
    const row = counts.get(type);
    return row ? [{ hazard_type: type, ...row, total: row.low + row.medium + row.high }] : [];
  });
}

async function visibleThingOrg(db: Db, caller: Caller, thingId: string): Promise<string> {
  const visibleOrgs = caller.scope.visibleOrgIds === null ? null : [...caller.scope.visibleOrgIds];
  const [thing] = await db
    .select({ organizationId: things.organizationId })
    .from(things)
    .where(and(eq(things.id, thingId), isNull(things.deletedAt), thingVisibleSql(caller.scope, visibleOrgs)))
    .limit(1);
  if (!thing) throw unprocessable('thing_id: Asset not found');
  return thing.organizationId;
}

export function hazardRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  /**
   * The query (org_ids[], start_time, end_time, types[], severities[], all_types) is read by the
   * handler with the report form's rules and messages (part 2 §5 Hazard report): documented only.
   */
  api.get(
    '/organization/hazards',
    {
      config: { access: HAZARD_VIEW },
      schema: {
        summary: 'The hazards reported in a past range of at most 24 hours, with counts by type and severity',
        querystring: documentedObject({
          ...orgIdsQuery,
          start_time: requiredTimeValue('The start of the range: in the past, before end_time, at most 24 hours before it.'),
          end_time: requiredTimeValue('The end of the range: in the past, after start_time.'),
          'types[]': listValues(
            `The hazard types; at least one unless all_types=true (else 422 '${MESSAGES.hazardTypesMin}').`,
            z.enum(HAZARD_TYPES),
          ),
          'severities[]': listValues('The severities; absent = every severity.', z.enum(HAZARD_SEVERITIES)),
          all_types: z
            .enum(['true', 'false'])
            .optional()
            .meta({ description: "'true': every type (types[] is then not needed); 'false' or absent: the types of types[]." }),
        }),
        response: { 200: hazardReportWireSchema, 404: errorAnswer, 422: errorAnswer },
      },
    },
    async (request): Promise<HazardReportWire> => {
      const { caller } = request;
      const orgIds = await listOrgIds(db, caller, request.query);
      const query = (request.query ?? {}) as Record<string, unknown>;
      const now = deps.now().getTime();
      const form = parseForm(
        hazardReportSchema({ now }),
        {
          allTypes: parse(z.object({ all_types: z.enum(['true', 'false']).optional() }), query).all_types === 'true',
          types: listParam(query, 'types'),
          severities: listParam(query, 'severities'),
          startTime: sinceParam(query, 'start_time')?.getTime() ?? null,
          endTime: sinceParam(query, 'end_time')?.getTime() ?? null,
        },
        REPORT_WIRE_NAMES,
      );
      const startTime = new Date(form.startTime!);
      const endTime = new Date(form.endTime!);
      const answer = { start_time: startTime.toISOString(), end_time: endTime.toISOString() };
      if (orgIds !== null && orgIds.length === 0) return { ...answer, hazards: [], counts: [] };
      const severities = form.severities ?? [];
      const rows = await selectHazards(
        db,
        and(
          orgIds === null ? undefined : inArray(hazards.organizationId, orgIds),
          gte(hazards.reportedAt, startTime),
          lte(hazards.reportedAt, endTime),
          form.allTypes ? undefined : inArray(hazards.hazardType, form.types),
          severities.length > 0 ? inArray(hazards.severity, severities) : undefined,
        ),
      );
      const list = rows.map(hazardToWire);
      return { ...answer, hazards: list, counts: hazardCounts(list) };
    },
  );

  api.post(
    '/organization/hazards',
    {
      config: { access: HAZARD_REPORT },
      schema: {
        summary: 'Report a hazard (a device or the simulator)',
        body: hazardBody,
        response: { 201: hazardWireSchema, 404: errorAnswer },
      },
    },
    async (request, reply): Promise<HazardWire> => {
      const { caller, body } = request;
      const now = deps.now();
      const reportedAt = body.reported_at ? new Date(body.reported_at) : now;
      if (reportedAt.getTime() > now.getTime()) throw unprocessable(`reported_at: ${MESSAGES.pastDate}`);
      let organizationId = body.organization_id ?? caller.scope.organizationId;
      if (body.thing_id) {
        const thingOrg = await visibleThingOrg(db, caller, body.thing_id);
        if (body.organization_id && body.organization_id !== thingOrg) throw unprocessable('organization_id: does not own the asset');
        organizationId = thingOrg;
      }
      const org = await visibleOrganization(db, caller, organizationId);
      // Reporting writes the organization's data: an accessor organization only reads (orgAccess; OWASP ASVS V4.2.1).
      if (orgAccess(caller.scope, org.id) !== 'write') throw forbidden();
      const [created] = await db
        .insert(hazards)
        .values({
          organizationId: org.id,
          thingId: body.thing_id ?? null,
          hazardType: body.hazard_type,
          severity: body.severity,
          lat: truncateCoordinate(body.lat),
          lng: truncateCoordinate(body.lng),
          reportedAt,
        })
        .returning({ id: hazards.id });
      const [row] = await selectHazards(db, eq(hazards.id, created!.id));
      reply.code(201);
      return hazardToWire(row!);
    },
  );
}
