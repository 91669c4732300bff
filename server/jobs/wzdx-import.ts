/**
 * The WZDx feed import (beyond the spec): each enabled subscription (`wzdx_feeds`) is fetched when
 * due, checked against the official WZDx 4.2 Work Zone Feed schema, and its work-zone road events
 * become closures of type feed in the subscribing organization (part 2 §2 Closures, §4: a feed
 * closure is read-only, "managed by the WZDx feed").
 *
 * - A work zone is matched by (subscription, feature id): new ones are inserted, changed ones
 *   updated, unchanged ones left alone (their `updated_at` stays, so incremental closure lists do
 *   not carry them again on every poll).
 * - A work zone gone from the feed is ended, not deleted: inactive, its end time now.
 * - A feed that cannot be fetched (HTTP error, timeout, over the size limit), is not JSON, is not
 *   a 4.x feed or fails the schema changes no closure; the reason is recorded in `last_error`.
 * - A work zone the schema allows but the database or a closure list cannot take is left out alone,
 *   with its reason in the subscription's `skipped` (the rest are imported): a date outside
 *   1970–2100 or a text holding a NUL (the API's own boundary rules), an id longer than
 *   WORK_ZONE_ID_MAX, a path still longer than WORK_ZONE_PATH_MAX points once simplified (a path
 *   of more than WORK_ZONE_PATH_SIMPLIFY_ABOVE points: Douglas–Peucker, about 1 m). Street names are cut to WORK_ZONE_STREET_MAX characters.
 * - A database failure is logged as the database's one-line reason, never the statement and its
 *   row values, and recorded in `last_error`.
 * - Every write bumps the closure's `updated_at`, which is how clients learn of closure changes
 *   (the incremental `GET /organization/closure`, polled by the live worker and the closures page).
 *
 * Mapping of a road event's properties (WZDx 4.2 RoadEventFeature) to a closure:
 * external_id = the feature's id; path (calculated and user route) = its LineString or MultiPoint
 * in order, [lng, lat] → {lat, lng}, 7 decimals; description = core_details.description, else
 * its name, else the road names; street start/end = the beginning/ending cross street, else the
 * first road name; direction northbound/eastbound/southbound/westbound → N/E/S/W, others none;
 * start/end time = start_date/end_date; impacted lanes = the closed lanes' order numbers 1–9;
 * vehicle_impact and location_method as given. Active while start ≤ now < end (the scheduled
 * closure job then flips it at its times, as it does every closure). Detour road events are not
 * work zones and are left out.
 */
import { and, eq, gt, inArray, isNull, notInArray, or, sql } from 'drizzle-orm';
import { truncateCoordinate } from '../../src/domain/geometry';
import { simplifyPath } from '../../src/domain/path-simplify';
import { findNul, isInputTime, NUL_MESSAGE, TIME_RANGE_MESSAGE } from '../../src/domain/validation/boundary';
import type { WzdxFetchLimits } from '../config';
import type { Db } from '../db/connection';
import { closures, organizations, wzdxFeeds } from '../db/schema';
import { failureReason, nextVersion } from '../db/rows';
import { isUniqueViolation } from '../core/errors';
import { FeedFetchError, fetchFeedText } from '../wzdx/fetch-feed';
import { workZoneFeedProblem } from '../wzdx/schema';

/** How many due feeds one tick fetches at most (the rest are due on the next tick). */
export const WZDX_FEEDS_PER_TICK = 20;
/** A feed closure's description is cut to this many characters. */
const DESCRIPTION_MAX = 1000;
/** A feed closure's street names are cut to this many characters. */
export const WORK_ZONE_STREET_MAX = 200;
/** A work zone whose id is longer is left out (the id is the closure's WZDx id, shown and sent again). */
export const WORK_ZONE_ID_MAX = 200;
/** A path of more points than this is simplified (Douglas–Peucker, about 1 m). */
export const WORK_ZONE_PATH_SIMPLIFY_ABOVE = 1_000;
/** A work zone whose path has more points once simplified is left out (a closure list carries every path). */
export const WORK_ZONE_PATH_MAX = 5_000;
/** The skipped work zones a subscription keeps (with their reasons); the count says how many in all. */
export const WZDX_SKIPPED_SHOWN = 20;
/** How much of a skipped work zone's id its entry shows. */
const SKIPPED_ID_SHOWN = 80;

type FeedRow = typeof wzdxFeeds.$inferSelect;
type ClosureInsert = typeof closures.$inferInsert;

export interface WzdxImportDeps {
  db: Db;
  now(): Date;
  limits: WzdxFetchLimits;
  log?: { warn(obj: object, msg: string): void };
}

export interface WzdxImportResult {
  ok: boolean;
  /** The reason of a failed import, in plain words. */
  error: string | null;
  workZones: number;
  /** Work zones left out, each with its reason. */
  skipped: SkippedWorkZone[];
  inserted: number;
  updated: number;
  ended: number;
}

const FEED_EXTERNAL_ID_INDEX = 'closures_feed_external_id_idx';
/** Rows of one multi-row insert of new work zones. */
const INSERT_BATCH = 500;

export interface SkippedWorkZone {
  id: string;
  reason: string;
}

const failed = (error: string): WzdxImportResult => ({ ok: false, error, workZones: 0, skipped: [], inserted: 0, updated: 0, ended: 0 });
const CONCURRENT_IMPORT = 'Another import of this feed was running; its result stands';

/** A failure of the feed itself (not JSON, not 4.x, not the schema): its message is shown to users. */
class FeedProblem extends Error {}

const DIRECTIONS: Record<string, string> = { northbound: 'N', eastbound: 'E', southbound: 'S', westbound: 'W' };

interface RoadEvent {
  id: string;
  geometry: { type: 'LineString' | 'MultiPoint'; coordinates: number[][] };
  properties: {
    core_details: { event_type: string; road_names: string[]; direction: string; name?: string; description?: string };
    start_date: string;
    end_date: string;
    beginning_cross_street?: string;
    ending_cross_street?: string;
    location_method?: string;
    vehicle_impact?: string;
    lanes?: { order: number; status: string }[];
  };
}

/**
 * A work zone's path as a closure keeps it: [lng, lat] → {lat, lng} to 7 decimals; a path of more
 * than WORK_ZONE_PATH_SIMPLIFY_ABOVE points simplified (the usual feed keeps its points as sent).
 */
function simplifiedPath(event: RoadEvent): { lat: number; lng: number }[] {
  const path = event.geometry.coordinates.map(([lng = 0, lat = 0]) => ({ lat: truncateCoordinate(lat), lng: truncateCoordinate(lng) }));
  return path.length > WORK_ZONE_PATH_SIMPLIFY_ABOVE ? simplifyPath(path) : path;
}

/**
 * Why a work zone the schema allows cannot be imported (null: it can): the API's boundary rules
 * (dates 1970–2100, no NUL in any text) and the size limits above.
 */
export function workZoneProblem(event: RoadEvent, path: readonly unknown[]): string | null {
  if (event.id.length > WORK_ZONE_ID_MAX) return `id: longer than ${WORK_ZONE_ID_MAX} characters`;
  const nul = findNul(event);
  if (nul) return `${nul.join('.')}: ${NUL_MESSAGE}`;
  for (const field of ['start_date', 'end_date'] as const) {
    if (!isInputTime(Date.parse(event.properties[field]))) return `${field}: ${TIME_RANGE_MESSAGE}`;
  }
  if (path.length > WORK_ZONE_PATH_MAX) return `geometry: ${path.length} points once simplified, more than ${WORK_ZONE_PATH_MAX}`;
  return null;
}

/** A work zone to import: its road event and its path as the closure keeps it (simplified once). */
interface WorkZone {
  event: RoadEvent;
  path: { lat: number; lng: number }[];
}

/** The work zones to import, and those left out with their reasons. */
export function sortWorkZones(events: RoadEvent[]): { good: WorkZone[]; skipped: SkippedWorkZone[] } {
  const good: WorkZone[] = [];
  const skipped: SkippedWorkZone[] = [];
  for (const event of events) {
    const path = simplifiedPath(event);
    const reason = workZoneProblem(event, path);
    if (!reason) good.push({ event, path });
    else {
      const id = event.id.length > SKIPPED_ID_SHOWN ? `${event.id.slice(0, SKIPPED_ID_SHOWN)}…` : event.id;
      skipped.push({ id: id.replaceAll('\u0000', '\uFFFD'), reason });
    }
  }
  return { good, skipped };
}

/** The closure values of one work zone (what is compared to decide whether it changed). */
function closureValues({ event, path }: WorkZone, now: Date) {
  const { core_details: core } = event.properties;
  const start = new Date(event.properties.start_date);
  const end = new Date(event.properties.end_date);
  const firstRoad = core.road_names[0] ?? null;
  const description = (core.description?.trim() || core.name?.trim() || core.road_names.join(', ')).slice(0, DESCRIPTION_MAX);
  const lanes = [...new Set((event.properties.lanes ?? []).filter((lane) => lane.status === 'closed').map((lane) => lane.order))]
    .filter((order) => Number.isInteger(order) && order >= 1 && order <= 9)
    .sort((a, b) => a - b);
  return {
    description,
    direction: DIRECTIONS[core.direction] ?? null,
    streetStart: (event.properties.beginning_cross_street?.trim() || firstRoad)?.slice(0, WORK_ZONE_STREET_MAX) ?? null,
    streetEnd: (event.properties.ending_cross_street?.trim() || firstRoad)?.slice(0, WORK_ZONE_STREET_MAX) ?? null,
    calculatedRoute: path,
    userRoute: path,
    startTime: start,
    endTime: end,
    isActive: start.getTime() <= now.getTime() && now.getTime() < end.getTime(),
    impactedLanes: lanes,
    locationMethod: event.properties.location_method ?? null,
    vehicleImpact: event.properties.vehicle_impact ?? null,
  };
}
type ClosureValues = ReturnType<typeof closureValues>;

const comparable = (values: ClosureValues) =>
  JSON.stringify({ ...values, startTime: values.startTime.getTime(), endTime: values.endTime.getTime() });

function rowComparable(row: typeof closures.$inferSelect): string {
  return JSON.stringify({
    description: row.description,
    direction: row.direction,
    streetStart: row.streetStart,
    streetEnd: row.streetEnd,
    calculatedRoute: row.calculatedRoute,
    userRoute: row.userRoute,
    startTime: row.startTime?.getTime() ?? null,
    endTime: row.endTime?.getTime() ?? null,
    isActive: row.isActive,
    impactedLanes: row.impactedLanes,
    locationMethod: row.locationMethod,
    vehicleImpact: row.vehicleImpact,
  });
}

/** Parses and checks the body; the work-zone road events, or a FeedProblem with the reason. */
export function workZonesOf(text: string): RoadEvent[] {
  let feed: unknown;
  try {
    feed = JSON.parse(text);
  } catch (error) {
    throw new FeedProblem(`The feed is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const version = (feed as { feed_info?: { version?: unknown } } | null)?.feed_info?.version;
  if (typeof version === 'string' && !/^4\.\d+$/.test(version)) {
    throw new FeedProblem(`The feed is WZDx version ${version.slice(0, 20)}; only WZDx 4.x feeds are read`);
  }
  const problem = workZoneFeedProblem(feed);
  if (problem) throw new FeedProblem(problem);
  const events = (feed as { features: RoadEvent[] }).features.filter((event) => event.properties.core_details.event_type === 'work-zone');
  // A feed naming one id twice: the last one counts.
  return [...new Map(events.map((event) => [event.id, event])).values()];
}

/** Writes the work zones of one feed as its closures (one transaction): inserted, updated, ended. */
async function applyWorkZones(db: Db, feed: FeedRow, zones: WorkZone[], now: Date) {
  return db.transaction(async (tx) => {
    const existing = await tx
      .select()
      .from(closures)
      .where(and(eq(closures.wzdxFeedId, feed.id), isNull(closures.deletedAt)));
    const byExternalId = new Map(existing.map((row) => [row.externalId, row]));
    const inserts: ClosureInsert[] = [];
    let updated = 0;
    for (const zone of zones) {
      const { event } = zone;
      const values = closureValues(zone, now);
      const row = byExternalId.get(event.id);
      if (!row) {
        inserts.push({
          ...values,
          organizationId: feed.organizationId,
          wzdxFeedId: feed.id,
          closureType: 'feed',
          externalId: event.id,
          isDashboardManaged: false,
          isPublishOn: false,
          isWzdxCompliant: true,
          lastStartTime: values.isActive ? now : null,
          createdAt: now,
          updatedAt: now,
        });
      } else if (rowComparable(row) !== comparable(values)) {
        const starts = values.isActive && !row.isActive;
        await tx
          .update(closures)
          .set({ ...values, ...(starts ? { lastStartTime: now } : {}), updatedAt: now, version: nextVersion(closures.version) })
          .where(eq(closures.id, row.id));
        updated += 1;
      }
    }
    // New work zones in multi-row inserts (a first import of a large feed is one statement per batch, not per zone).
    for (let i = 0; i < inserts.length; i += INSERT_BATCH) await tx.insert(closures).values(inserts.slice(i, i + INSERT_BATCH));
    // Gone from the feed: ended (inactive, end time now), unless it has ended already.
    const present = zones.map((zone) => zone.event.id);
    const ended = await tx
      .update(closures)
      .set({ isActive: false, endTime: now, updatedAt: now, version: nextVersion(closures.version) })
      .where(
        and(
          eq(closures.wzdxFeedId, feed.id),
          isNull(closures.deletedAt),
          present.length > 0 ? notInArray(closures.externalId, present) : undefined,
          or(eq(closures.isActive, true), isNull(closures.endTime), gt(closures.endTime, now)),
        ),
      )
      .returning({ id: closures.id });
    return { inserted: inserts.length, updated, ended: ended.length };
  });
}

/**
 * Fetches one subscription now and imports it; records the outcome on the subscription (last
 * fetched at, last error or none, count of work zones). Never throws for the feed's own faults.
 */
export async function importWzdxFeed(deps: WzdxImportDeps, feed: FeedRow): Promise<WzdxImportResult> {
  const fetchedAt = deps.now();
  try {
    const text = await fetchFeedText(feed.url, deps.limits);
    const { good: zones, skipped } = sortWorkZones(workZonesOf(text));
    const counts = await applyWorkZones(deps.db, feed, zones, deps.now());
    await deps.db
      .update(wzdxFeeds)
      .set({
        lastFetchedAt: fetchedAt,
        lastError: null,
        importedCount: zones.length,
        skipped: skipped.slice(0, WZDX_SKIPPED_SHOWN),
        skippedCount: skipped.length,
      })
      .where(eq(wzdxFeeds.id, feed.id));
    if (skipped.length > 0) deps.log?.warn({ feed: feed.id, skipped: skipped.length }, 'WZDx feed import left work zones out');
    return { ok: true, error: null, workZones: zones.length, skipped, ...counts };
  } catch (error) {
    // Two imports of one feed at once (a refresh during the job's): the other one's writes stand.
    if (isUniqueViolation(error, FEED_EXTERNAL_ID_INDEX)) {
      return failed(CONCURRENT_IMPORT);
    }
    const known = error instanceof FeedFetchError || error instanceof FeedProblem;
    // The database's own words for anything else: never the statement with its row values.
    const reason = known ? error.message : `The import could not be saved (${failureReason(error)})`;
    deps.log?.warn({ feed: feed.id, err: reason }, 'WZDx feed import failed');
    await deps.db.update(wzdxFeeds).set({ lastFetchedAt: fetchedAt, lastError: reason }).where(eq(wzdxFeeds.id, feed.id));
    return failed(reason);
  }
}

/**
 * The subscriptions due now (enabled, of a live organization, never fetched or fetched at least
 * their interval ago), each claimed by moving its `last_fetched_at` to now — a conditional update,
 * so two servers on one Postgres never import the same feed at once — then imported in parallel.
 */
export async function importDueWzdxFeeds(deps: WzdxImportDeps): Promise<WzdxImportResult[]> {
  const now = deps.now();
  const isDue = or(
    isNull(wzdxFeeds.lastFetchedAt),
    sql`${wzdxFeeds.lastFetchedAt} + make_interval(secs => ${wzdxFeeds.pollIntervalS}) <= ${now}`,
  );
  const due = deps.db
    .select({ id: wzdxFeeds.id })
    .from(wzdxFeeds)
    .innerJoin(organizations, eq(organizations.id, wzdxFeeds.organizationId))
    .where(and(eq(wzdxFeeds.enabled, true), isNull(organizations.deletedAt), isDue))
    .orderBy(sql`${wzdxFeeds.lastFetchedAt} asc nulls first`)
    .limit(WZDX_FEEDS_PER_TICK);
  // One statement claims them: the due test is repeated on each row it updates, so a feed another
  // server claimed meanwhile (its last_fetched_at just moved) is not due any more and not taken.
  const claimed = await deps.db
    .update(wzdxFeeds)
    .set({ lastFetchedAt: now })
    .where(and(inArray(wzdxFeeds.id, due), eq(wzdxFeeds.enabled, true), isDue))
    .returning();
  // One feed's database failure must not cost the others (nor the rest of the tick).
  return Promise.all(
    claimed.map((feed) =>
      importWzdxFeed(deps, feed).catch((error: unknown): WzdxImportResult => {
        const message = failureReason(error);
        deps.log?.warn({ feed: feed.id, err: message }, 'WZDx feed import failed');
        return failed(message);
      }),
    ),
  );
}

/** The live feed closures of subscriptions (for a deleted subscription: they go with it). */
export async function deleteFeedClosures(db: Db, feedIds: string[], now: Date): Promise<number> {
  if (feedIds.length === 0) return 0;
  const deleted = await db
    .update(closures)
    .set({ deletedAt: now, isActive: false, updatedAt: now })
    .where(and(inArray(closures.wzdxFeedId, feedIds), isNull(closures.deletedAt)))
    .returning({ id: closures.id });
  return deleted.length;
}
