/**
 * An incident's notes and acknowledgement (docs/decisions/spec.md "Incident notes and
 * acknowledgement"; docs/api/things-and-locations.md): the note's text rule, the wire of
 * GET/POST /locations/{id}/notes and of POST /locations/{id}/acknowledge. One definition for the
 * server's checks and answers and the client's form and parsing.
 */
import { z } from 'zod';
import { isoDateTime, parseTime } from './time';
import { requiredString } from './validation/fields';

/** A note's text: 1 to 1,000 characters after trimming. */
export const NOTE_TEXT_MAX = 1000;
export const NOTE_TEXT_TOO_LONG = `Must be ${NOTE_TEXT_MAX} or fewer characters`;

export const noteTextSchema = requiredString({ max: NOTE_TEXT_MAX, message: NOTE_TEXT_TOO_LONG });

/** A user as these calls name them: id and 'First Last'. */
export const userRefSchema = z.object({ id: z.string(), name: z.string() });
export type UserRef = z.infer<typeof userRefSchema>;

export const locationNoteWireSchema = z.object({
  id: z.string(),
  location_id: z.string(),
  text: z.string(),
  created_at: isoDateTime,
  /** null when the author's account is gone. */
  author: userRefSchema.nullable(),
});
export type LocationNoteWire = z.infer<typeof locationNoteWireSchema>;

export const locationNotesAnswerSchema = z.object({ data: z.array(locationNoteWireSchema) });

export const acknowledgementWireSchema = z.object({
  location_id: z.string(),
  acknowledged_at: isoDateTime,
  acknowledged_by: userRefSchema.nullable(),
});
export type AcknowledgementWire = z.infer<typeof acknowledgementWireSchema>;

export interface LocationNote {
  id: string;
  text: string;
  /** ms */
  createdAt: number;
  author: UserRef | null;
}

export function fromLocationNoteWire(wire: LocationNoteWire): LocationNote {
  return { id: wire.id, text: wire.text, createdAt: parseTime(wire.created_at) ?? 0, author: wire.author };
}
