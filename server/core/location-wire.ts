/**
 * Database rows → the location (event) wire object of src/domain/location.ts (`locationWireSchema`),
 * for GET /locations, GET /locations/active and PUT /locations/{id} (later the socket too).
 *
 * The vehicles of every location come from one batched query over location_things joined with
 * things, split into things_active / things_inactive by the row's is_active flag (part 1 §3).
 */
import { asc, count, eq, inArray } from 'drizzle-orm';
import { primaryDisplayName } from '../../src/domain/asset';
import { geoJsonFeatureSchema, type GeoJsonFeature } from '../../src/domain/geometry';
import type { LocationThingWire, LocationWireInput } from '../../src/domain/location';
import type { UserRef } from '../../src/domain/location-notes';
import type { Db } from '../db/connection';
import { locationNotes, locations, locationThings, things, users } from '../db/schema';
import { secondsBetween } from '../../src/domain/time';

export type LocationRow = typeof locations.$inferSelect;

/** A vehicle on an event as the server writes it: the schema's fields plus its display name. */
export type LocationThingWireOut = LocationThingWire & { display_name: string };
export type LocationWireOut = Omit<LocationWireInput, 'things_active' | 'things_inactive'> & {
  things_active: LocationThingWireOut[];
  things_inactive: LocationThingWireOut[];
};

const iso = (date: Date | null | undefined): string | null => (date ? date.toISOString() : null);

/** Stored features that are valid GeoJSON Features; anything else stored there is left out. */
function validFeatures(stored: readonly unknown[]): GeoJsonFeature[] {
  const out: GeoJsonFeature[] = [];
  for (const feature of stored) {
    const parsed = geoJsonFeatureSchema.safeParse(feature);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}

/** The wire objects of the given location rows, in their order, with their vehicles (one query). */
export async function toLocationWires(db: Db, rows: readonly LocationRow[], now: Date): Promise<LocationWireOut[]> {
  if (rows.length === 0) return [];
  const vehicles = await db
    .select({
      locationId: locationThings.locationId,
      startTime: locationThings.startTime,
      endTime: locationThings.endTime,
      isActive: locationThings.isActive,
      id: things.id,
      haasId: things.haasId,
      nickname: things.nickname,
      externalId: things.externalId,
      vinNumber: things.vinNumber,
      licensePlateNumber: things.licensePlateNumber,
      registryNumber: things.registryNumber,
    })
    .from(locationThings)
    .innerJoin(things, eq(things.id, locationThings.thingId))
    .where(
      inArray(
        locationThings.locationId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(locationThings.startTime), asc(things.id));

  const active = new Map<string, LocationThingWireOut[]>();
  const inactive = new Map<string, LocationThingWireOut[]>();
  for (const v of vehicles) {
    const wire: LocationThingWireOut = {
      id: v.id,
      display_name: primaryDisplayName(v.haasId, v.nickname),
      haas_id: v.haasId,
      nickname: v.nickname,
      external_id: v.externalId,
      vin_number: v.vinNumber,
      license_plate_number: v.licensePlateNumber,
      registry_number: v.registryNumber,
      start_time: iso(v.startTime),
      end_time: iso(v.endTime),
      // Seconds on scene: to its end, or until now while it is still there.
      runtime: secondsBetween(v.startTime, v.endTime ?? now),
    };
    const target = v.isActive ? active : inactive;
    const list = target.get(v.locationId);
    if (list) list.push(wire);
    else target.set(v.locationId, [wire]);
  }

  const { names, notes } = await acknowledgersAndNoteCounts(db, rows);
  return rows.map((row) => ({
    id: row.id,
    external_id: row.externalId,
    display_name: row.displayName,
    is_active: row.isActive,
    is_geo_marker: row.isGeoMarker,
    marker_position: row.markerLat !== null && row.markerLng !== null ? { lat: row.markerLat, lng: row.markerLng } : null,
    lat: row.lat,
    lng: row.lng,
    street: row.street,
    roadway_heading: row.roadwayHeading,
    start_time: iso(row.startTime),
    end_time: iso(row.endTime),
    alert_message: row.alertMessage,
    wzdx_id: row.wzdxId,
    things_active: active.get(row.id) ?? [],
    things_inactive: inactive.get(row.id) ?? [],
    features: validFeatures(row.features),
    organization_id: row.organizationId,
    updated_at: iso(row.updatedAt),
    acknowledged_at: iso(row.acknowledgedAt),
    acknowledged_by: row.acknowledgedBy ? (names.get(row.acknowledgedBy) ?? null) : null,
    notes_count: notes.get(row.id) ?? 0,
  }));
}

/** A user as the notes and acknowledgement name them: 'First Last'. */
export function userName(user: { firstname: string; lastname: string }): string {
  return `${user.firstname} ${user.lastname}`.trim();
}

/** The acknowledgers' names and the note counts of the rows (one query each; docs/decisions/spec.md "Incident notes and acknowledgement"). */
async function acknowledgersAndNoteCounts(db: Db, rows: readonly LocationRow[]) {
  const userIds = [...new Set(rows.flatMap((row) => (row.acknowledgedBy ? [row.acknowledgedBy] : [])))];
  const people =
    userIds.length === 0
      ? []
      : await db
          .select({ id: users.id, firstname: users.firstname, lastname: users.lastname })
          .from(users)
          .where(inArray(users.id, userIds));
  const names = new Map<string, UserRef>(people.map((person) => [person.id, { id: person.id, name: userName(person) }]));
  const counts = await db
    .select({ locationId: locationNotes.locationId, count: count() })
    .from(locationNotes)
    .where(
      inArray(
        locationNotes.locationId,
        rows.map((row) => row.id),
      ),
    )
    .groupBy(locationNotes.locationId);
  const notes = new Map(counts.map((row) => [row.locationId, Number(row.count)]));
  return { names, notes };
}
