import { and, asc, desc, eq, gt, gte, isNull, or, sql } from 'drizzle-orm';
import { EVENTS_KEPT } from '../../../src/domain/constants';
import type { Db } from '../../db/connection';
import { locationNotes, locations, users } from '../../db/schema';
import { toLocationWires, userName, type LocationRow } from '../../core/location-wire';
import type { LocationNoteWire } from '../../../src/domain/location-notes';
import { orgCondition } from '../organization-scope';
import type { LocationAnswer, LocationUpdate } from './schema';

/**
 * The event (location) calls' reads and writes; the wire objects are written by
 * server/core/location-wire.ts (`toLocationWires`, with the vehicles of each location).
 */

/** Active first; active by newest start; inactive by newest end (part 1 §4, src/domain compareEvents). */
const EVENT_ORDER = [
  desc(locations.isActive),
  sql`case when ${locations.isActive} then ${locations.startTime} else ${locations.endTime} end desc nulls last`,
  asc(locations.id),
];

/** What `toLocationWires` writes is the answer: every field present. */
export async function locationWires(db: Db, rows: readonly LocationRow[], now: Date): Promise<LocationAnswer[]> {
  return (await toLocationWires(db, rows, now)) as LocationAnswer[];
}

/**
 * The live events of the organizations (null: all) that are active or started or ended since
 * `startDate`, changed after `since` when given. part 1 §9: a full load answers at most the newest
 * EVENTS_KEPT; an incremental one every change.
 */
export async function listLocations(db: Db, orgIds: readonly string[] | null, startDate: Date, since: Date | null): Promise<LocationRow[]> {
  const inWindow = or(eq(locations.isActive, true), gte(locations.startTime, startDate), gte(locations.endTime, startDate));
  const query = db
    .select()
    .from(locations)
    .where(
      and(
        isNull(locations.deletedAt),
        orgCondition(locations.organizationId, orgIds),
        inWindow,
        since ? gt(locations.updatedAt, since) : undefined,
      ),
    )
    .orderBy(...EVENT_ORDER);
  return since ? await query : await query.limit(EVENTS_KEPT);
}

/** The ids of the events of the organizations (null: all) deleted after `since`. */
export async function listDeletedLocationIds(db: Db, orgIds: readonly string[] | null, since: Date): Promise<string[]> {
  const rows = await db
    .select({ id: locations.id })
    .from(locations)
    .where(and(gt(locations.deletedAt, since), orgCondition(locations.organizationId, orgIds)))
    .orderBy(asc(locations.id));
  return rows.map((row) => row.id);
}

/** The live active events of the organizations (null: all). */
export async function listActiveLocations(db: Db, orgIds: readonly string[] | null): Promise<LocationRow[]> {
  return db
    .select()
    .from(locations)
    .where(and(isNull(locations.deletedAt), eq(locations.isActive, true), orgCondition(locations.organizationId, orgIds)))
    .orderBy(...EVENT_ORDER);
}

/** An event, deleted ones included (the route tells them apart), else undefined. */
export async function findLocation(db: Db, id: string): Promise<LocationRow | undefined> {
  const [location] = await db.select().from(locations).where(eq(locations.id, id)).limit(1);
  return location;
}

/** Moves an event's position and roadway heading. */
export async function updateLocationPosition(db: Db, id: string, edit: LocationUpdate, now: Date): Promise<LocationRow | undefined> {
  const [updated] = await db
    .update(locations)
    .set({ lat: edit.lat, lng: edit.lng, roadwayHeading: edit.roadway_heading, updatedAt: now })
    .where(eq(locations.id, id))
    .returning();
  return updated;
}

// ── notes and acknowledgement (docs/decisions/spec.md "Incident notes and acknowledgement") ──

const noteColumns = {
  id: locationNotes.id,
  locationId: locationNotes.locationId,
  text: locationNotes.text,
  createdAt: locationNotes.createdAt,
  authorId: users.id,
  firstname: users.firstname,
  lastname: users.lastname,
};
type NoteRow = {
  id: string;
  locationId: string;
  text: string;
  createdAt: Date;
  authorId: string | null;
  firstname: string | null;
  lastname: string | null;
};

function noteWire(row: NoteRow): LocationNoteWire {
  return {
    id: row.id,
    location_id: row.locationId,
    text: row.text,
    created_at: row.createdAt.toISOString(),
    author: row.authorId ? { id: row.authorId, name: userName({ firstname: row.firstname ?? '', lastname: row.lastname ?? '' }) } : null,
  };
}

/** An incident's notes, newest first, with their authors. */
export async function listLocationNotes(db: Db, locationId: string): Promise<LocationNoteWire[]> {
  const rows = await db
    .select(noteColumns)
    .from(locationNotes)
    .leftJoin(users, eq(users.id, locationNotes.authorId))
    .where(eq(locationNotes.locationId, locationId))
    .orderBy(desc(locationNotes.createdAt), desc(locationNotes.id));
  return rows.map(noteWire);
}

/** Adds a note and marks the incident changed (an incremental GET /locations carries its notes_count); the updated row comes back. */
export async function addLocationNote(
  db: Db,
  locationId: string,
  authorId: string,
  text: string,
  now: Date,
): Promise<{ note: LocationNoteWire; location: LocationRow }> {
  return db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(locationNotes)
      .values({ locationId, authorId, text, createdAt: now })
      .returning({ id: locationNotes.id });
    const [location] = await tx.update(locations).set({ updatedAt: now }).where(eq(locations.id, locationId)).returning();
    const [row] = await tx
      .select(noteColumns)
      .from(locationNotes)
      .leftJoin(users, eq(users.id, locationNotes.authorId))
      .where(eq(locationNotes.id, inserted!.id));
    return { note: noteWire(row!), location: location! };
  });
}

/**
 * Records the first acknowledgement; a later one changes nothing (the first stays). Answers the
 * row as it stands and whether this call acknowledged it.
 */
export async function acknowledgeLocation(
  db: Db,
  locationId: string,
  userId: string,
  now: Date,
): Promise<{ location: LocationRow; changed: boolean }> {
  const [updated] = await db
    .update(locations)
    .set({ acknowledgedAt: now, acknowledgedBy: userId, updatedAt: now })
    .where(and(eq(locations.id, locationId), isNull(locations.acknowledgedAt)))
    .returning();
  if (updated) return { location: updated, changed: true };
  return { location: (await findLocation(db, locationId))!, changed: false };
}
