import { z } from 'zod';
import {
  WZDX_DIRECTIONS,
  WZDX_EVENT_STATUSES,
  WZDX_LANE_STATUSES,
  WZDX_LANE_TYPES,
  WZDX_LICENSE,
  WZDX_LOCATION_METHODS,
  WZDX_RELATED_ROAD_EVENT_TYPES,
  WZDX_VEHICLE_IMPACTS,
  WZDX_WORK_ZONE_TYPES,
  type WorkZoneFeed,
} from '../../../src/domain/wzdx';

/**
 * The public WZDx feed's path and answer (part 2 §1 "Closures can be published to a work-zone data
 * exchange (WZDx) feed"): a WZDx 4.2 WorkZoneFeed, written by src/domain/wzdx.ts's `buildWzdxFeed`,
 * whose enumerations (after the official schemas) are the domain's.
 */

export const FEED_CACHE_SECONDS = 60;

/** The path's organization id: any text (one that is not a uuid names no organization: 404, never 422). */
export const feedPath = z.object({ organizationId: z.string() });

// ── the answer: a WZDx 4.2 WorkZoneFeed (src/domain/wzdx.ts, after the official schemas) ──────────
//
// Every object is a loose object, so the serializer leaves out nothing (a field the builder adds
// later stays in the feed), and its fields are named in the order `buildWzdxFeed` writes them:
// zod writes the named fields in the schema's order, so the feed stays byte for byte the
// builder's document (tests/server/wzdx-feed.test.ts checks both).

/** RFC 3339 UTC, seconds precision. */
const wzdxDate = z.string().meta({ format: 'date-time' });

const feedDataSourceAnswer = z.looseObject({
  data_source_id: z.string(),
  organization_name: z.string(),
  contact_name: z.string().optional(),
  contact_email: z.string().optional(),
  update_frequency: z.number().optional(),
  update_date: wzdxDate.optional(),
});

const feedInfoAnswer = z.looseObject({
  publisher: z.string(),
  contact_name: z.string().optional(),
  contact_email: z.string().optional(),
  update_frequency: z.number().optional(),
  data_sources: z.array(feedDataSourceAnswer).min(1),
  update_date: wzdxDate,
  version: z.string(),
  license: z.literal(WZDX_LICENSE).optional(),
});

const coreDetailsAnswer = z.looseObject({
  data_source_id: z.string(),
  event_type: z.literal('work-zone'),
  road_names: z.array(z.string()).min(1),
  direction: z.enum(WZDX_DIRECTIONS),
  update_date: wzdxDate.optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  creation_date: wzdxDate.optional(),
  related_road_events: z.array(z.looseObject({ type: z.enum(WZDX_RELATED_ROAD_EVENT_TYPES), id: z.string() })).optional(),
});

const workZoneRoadEventAnswer = z.looseObject({
  core_details: coreDetailsAnswer,
  start_date: wzdxDate,
  end_date: wzdxDate,
  is_start_date_verified: z.boolean(),
  is_end_date_verified: z.boolean(),
  is_start_position_verified: z.boolean(),
  is_end_position_verified: z.boolean(),
  vehicle_impact: z.enum(WZDX_VEHICLE_IMPACTS),
  location_method: z.enum(WZDX_LOCATION_METHODS),
  beginning_cross_street: z.string().optional(),
  ending_cross_street: z.string().optional(),
  work_zone_type: z.enum(WZDX_WORK_ZONE_TYPES).optional(),
  reduced_speed_limit_kph: z.number().optional(),
  event_status: z.enum(WZDX_EVENT_STATUSES).optional(),
  lanes: z.array(z.looseObject({ order: z.number().int(), status: z.enum(WZDX_LANE_STATUSES), type: z.enum(WZDX_LANE_TYPES) })).optional(),
});

const roadEventFeatureAnswer = z.looseObject({
  id: z.string(),
  type: z.literal('Feature'),
  properties: workZoneRoadEventAnswer,
  geometry: z.looseObject({
    type: z.enum(['LineString', 'MultiPoint']),
    /** [lng, lat] positions. */
    coordinates: z.array(z.array(z.number())),
  }),
  bbox: z.array(z.number()).optional(),
});

/** The WZDx 4.2 WorkZoneFeed (a GeoJSON FeatureCollection of work-zone road events). */
export const workZoneFeedAnswer = z
  .looseObject({
    feed_info: feedInfoAnswer,
    type: z.literal('FeatureCollection'),
    features: z.array(roadEventFeatureAnswer),
    bbox: z.array(z.number()).optional(),
  })
  .meta({ description: 'A WZDx 4.2 Work Zone Feed (https://github.com/usdot-jpo-ode/wzdx, schemas/4.2/WorkZoneFeed.json).' });
export type FeedAnswer = z.input<typeof workZoneFeedAnswer>;

/** A type without the index signatures of the loose objects: the fields the schema names. */
type Named<T> = T extends readonly (infer U)[]
  ? Named<U>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K]: Named<T[K]> }
    : T;

/** The builder's feed as the answer: the compiler checks that the schema names every field WorkZoneFeed has, with its type. */
export function feedAnswer(feed: WorkZoneFeed): FeedAnswer {
  const named: Named<FeedAnswer> = feed;
  return named as FeedAnswer;
}
