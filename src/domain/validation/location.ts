/** The event location edit form (part 1 §2, §5): lat -90..90, lng -180..180, roadway heading 0..360, required. */
import { z } from 'zod';
import { latitudeField, longitudeField } from './fields';
import { HEADING_MAX, HEADING_MIN, MESSAGES } from './messages';

export const locationEditSchema = z.object({
  lat: latitudeField(),
  lng: longitudeField(),
  roadwayHeading: z
    .number({ error: MESSAGES.required })
    .min(HEADING_MIN, { error: MESSAGES.headingRange })
    .max(HEADING_MAX, { error: MESSAGES.headingRange }),
});
export type LocationEditForm = z.infer<typeof locationEditSchema>;
