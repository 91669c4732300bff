import { z } from 'zod';
import { incrementalAnswerSchema } from '../../../src/domain/incremental';
import { locationThingWireSchema, locationWireSchema } from '../../../src/domain/location';
import {
  acknowledgementWireSchema,
  locationNotesAnswerSchema,
  locationNoteWireSchema,
  noteTextSchema,
} from '../../../src/domain/location-notes';
import { locationEditSchema } from '../../../src/domain/validation/location';
import { HttpError } from '../../core/errors';
import { pathIds } from '../route-validation';

/**
 * The event (location) calls' bodies, answers and texts (part 1 §7 event calls, §8 "Location
 * update"): the domain's location edit rules and wire schema (src/domain/location.ts).
 */

const UUID_MESSAGE = 'must be a uuid';
const uuid = () => z.uuid({ error: UUID_MESSAGE });

/** The 422 texts of part 1 §8 "Location update", each carrying the word the catalogue reads. */
export const LOCATION_ERRORS = {
  notFound: 'Location not found',
  noAccess: 'User does not have access to Location',
  inactive: 'Location is no longer active',
  geoMarker: "A geo marker's position cannot be edited",
  otherOrganization: "organization_id: is not the Location's organization",
} as const;

/** 422 on organization_id: the body names neither the location's organization nor the caller's. */
export const notLocationOrganization = () =>
  new HttpError(422, 'invalid', LOCATION_ERRORS.otherOrganization, {
    fields: { organization_id: LOCATION_ERRORS.otherOrganization },
  });

export const locationPath = pathIds(z.object({ id: z.uuid() }), 'Location');

export const locationUpdateSchema = z.object({
  lat: locationEditSchema.shape.lat,
  lng: locationEditSchema.shape.lng,
  roadway_heading: locationEditSchema.shape.roadwayHeading,
  organization_id: uuid(),
});
export type LocationUpdate = z.output<typeof locationUpdateSchema>;

/**
 * A location as the calls answer it: the domain's wire (src/domain/location.ts), each vehicle with
 * the display name the server sends beside it (server/core/location-wire.ts). Every field is
 * always sent, so the wire schema's defaults add nothing.
 */
const locationThingAnswer = locationThingWireSchema.extend({
  display_name: z.string().meta({ description: 'The nickname, otherwise the upper-cased haas_id.' }),
});
export const locationAnswer = locationWireSchema.extend({
  things_active: z.array(locationThingAnswer),
  things_inactive: z.array(locationThingAnswer),
});
export type LocationAnswer = z.output<typeof locationAnswer>;
/** GET /locations and /locations/active: `{ data, meta: { server_timestamp, deleted_ids } }` (src/domain/incremental.ts). */
export const locationsAnswer = incrementalAnswerSchema(locationAnswer);

/** POST /locations/{id}/notes (docs/decisions/spec.md "Incident notes and acknowledgement"): the text, 1 to 1,000 characters after trimming. */
export const locationNoteBody = z.object({ text: noteTextSchema });
export const locationNoteAnswer = locationNoteWireSchema;
export const locationNotesAnswer = locationNotesAnswerSchema;
export const acknowledgementAnswer = acknowledgementWireSchema;
