import { z } from 'zod';
import { HAZARD_SEVERITIES, HAZARD_TYPES, type HazardSeverity, type HazardType } from '../../../src/domain/constants';
import {
  hazardCountWireSchema,
  hazardReportWireSchema,
  hazardWireSchema,
  type HazardReportWire,
  type HazardWire,
} from '../../../src/domain/hazard';
import { inputDateTime } from '../../../src/domain/validation/boundary';
import { latitudeField, longitudeField } from '../../../src/domain/validation/fields';
import { MESSAGES } from '../../../src/domain/validation/messages';
import { hazardReportSchema } from '../../../src/domain/validation/reports';
import { parse, parseForm, unprocessable } from '../../core/errors';
import { orgIdsQuery } from '../organization-scope';
import { listParam, listValues, requiredTimeValue, sinceParam } from '../query';
import { documentedObject } from '../route-validation';

/**
 * The hazard calls' queries, bodies, rules and answers (part 2 §2 Hazards, §5 Hazard report): the
 * report's range and types by the domain's `hazardReportSchema`, a report's body by its sizes and
 * types, and the counts by type and severity.
 */

export { hazardCountWireSchema, hazardReportWireSchema, hazardWireSchema };
export type { HazardReportWire, HazardWire };

// ── texts ────────────────────────────────────────────────────────────────────

export const reportedInFuture = () => unprocessable(`reported_at: ${MESSAGES.pastDate}`);
export const thingNotFound = () => unprocessable('thing_id: Asset not found');
export const orgNotOwner = () => unprocessable('organization_id: does not own the asset');

// ── requests ─────────────────────────────────────────────────────────────────

const REPORT_WIRE_NAMES = {
  allTypes: 'all_types',
  types: 'types[]',
  severities: 'severities[]',
  startTime: 'start_time',
  endTime: 'end_time',
};

/** The hazard report's query, documented only: `validReport` reads it after `org_ids[]`. */
export const reportQuery = documentedObject({
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
});

/** The hazard report's query by the report form's rules and messages (part 2 §5 Hazard report). */
export function validReport(rawQuery: unknown, now: number) {
  const query = (rawQuery ?? {}) as Record<string, unknown>;
  return parseForm(
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
}

export const hazardBody = z.object({
  hazard_type: z.enum(HAZARD_TYPES),
  severity: z.enum(HAZARD_SEVERITIES),
  lat: latitudeField(),
  lng: longitudeField(),
  thing_id: z.uuid({ error: 'must be a uuid' }).nullish(),
  organization_id: z.uuid({ error: 'must be a uuid' }).nullish(),
  reported_at: inputDateTime('must be an ISO 8601 time').nullish(),
});

// ── answers ──────────────────────────────────────────────────────────────────

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
