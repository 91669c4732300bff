import { z } from 'zod';
import { alertingZoneWireSchema } from '../../../src/domain/alerting-zone';

/**
 * The alerting zone calls' answers (part 2 §3 Alerting zone, §7 GET /organization/alerting_zones):
 * the dashboard's own wire schema, `alertingZoneWireSchema` of src/domain/alerting-zone.ts.
 */

export const zoneAnswer = alertingZoneWireSchema;
export const zonesAnswer = z.array(alertingZoneWireSchema);
