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

/** A number typed into a text input: blank stays missing ('Required'); anything else goes through Number (non-numbers give NaN: 'Required'). */
function textToNumber(text: string): number | undefined {
  return text.trim() === '' ? undefined : Number(text);
}

/**
 * The edit page's inputs are text fields: their strings become numbers, then the rules above
 * apply with the same messages and field names.
 */
export const locationEditTextSchema = z
  .object({ lat: z.string(), lng: z.string(), roadwayHeading: z.string() })
  .transform((form) => ({ lat: textToNumber(form.lat), lng: textToNumber(form.lng), roadwayHeading: textToNumber(form.roadwayHeading) }))
  .pipe(locationEditSchema);
export type LocationEditText = z.input<typeof locationEditTextSchema>;

/** The form's starting text of a location (a missing heading starts blank: the user must give one). */
export function locationEditText(location: { lat: number; lng: number; roadwayHeading: number | null }): LocationEditText {
  return {
    lat: String(location.lat),
    lng: String(location.lng),
    roadwayHeading: location.roadwayHeading === null ? '' : String(location.roadwayHeading),
  };
}
