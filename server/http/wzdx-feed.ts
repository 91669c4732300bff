import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fromClosureWire } from '../../src/domain/closure';
import {
  buildWzdxFeed,
  WZDX_DIRECTIONS,
  WZDX_EVENT_STATUSES,
  WZDX_LICENSE,
  WZDX_LOCATION_METHODS,
  WZDX_VEHICLE_IMPACTS,
  type WorkZoneFeed,
  type WzdxFeedInfoInput,
  type WzdxLaneStatus,
  type WzdxLaneType,
  type WzdxRelatedRoadEventType,
} from '../../src/domain/wzdx';
import { organizations } from '../db/schema';
import type { ServerDeps } from '../deps';
import { closureToWire, publishingClosuresWhere, selectClosures } from './closures/repository';
import { errorAnswer, notFound } from '../core/errors';

/**
 * GET /wzdx/{organizationId}/feed — the public WZDx 4.2 Work Zone Feed of a WZDx organization
 * (part 2 §1 "Closures can be published to a work-zone data exchange (WZDx) feed").
 *
 * No sign-in: feeds are read by third parties (navigation apps, state DOT aggregators), which is
 * the point of publishing. It lists only what the organization chose to publish (closures with a
 * WZDx id, built by src/domain/wzdx.ts's `buildWzdxFeed`, which also decides which are in effect
 * or planned). An unknown organization, or one that is not a WZDx organization, is 404.
 */

const FEED_CACHE_SECONDS = 60;

// ── the answer: a WZDx 4.2 WorkZoneFeed (src/domain/wzdx.ts, after the official schemas) ──────────
//
// Every object is a loose object, so the serializer leaves out nothing (a field the builder adds
// later stays in the feed), and its fields are named in the order `buildWzdxFeed` writes them:
// zod writes the named fields in the schema's order, so the feed stays byte for byte the
// builder's document (tests/server/wzdx-feed.test.ts checks both).

const LANE_STATUSES = [
  'open',
  'closed',
  'shift-left',
  'shift-right',
  'merge-left',
  'merge-right',
  'alternating-flow',
] as const satisfies readonly WzdxLaneStatus[];
const LANE_TYPES = [
  'general',
  'exit-lane',
  'exit-ramp',
  'entrance-lane',
  'entrance-ramp',
  'sidewalk',
  'bike-lane',
  'shoulder',
  'parking',
  'median',
  'two-way-center-turn-lane',
  'center-left-turn-lane',
] as const satisfies readonly WzdxLaneType[];
const RELATED_ROAD_EVENT_TYPES = [
  'first-in-sequence',
  'next-in-sequence',
  'first-occurrence',
  'next-occurrence',
  'related-work-zone',
  'related-detour',
  'planned-moving-operation',
  'active-moving-operation',
] as const satisfies readonly WzdxRelatedRoadEventType[];

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
  related_road_events: z.array(z.looseObject({ type: z.enum(RELATED_ROAD_EVENT_TYPES), id: z.string() })).optional(),
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
  work_zone_type: z.enum(['static', 'moving', 'planned-moving-area']).optional(),
  reduced_speed_limit_kph: z.number().optional(),
  event_status: z.enum(WZDX_EVENT_STATUSES).optional(),
  lanes: z.array(z.looseObject({ order: z.number().int(), status: z.enum(LANE_STATUSES), type: z.enum(LANE_TYPES) })).optional(),
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
type FeedAnswer = z.input<typeof workZoneFeedAnswer>;

/** A type without the index signatures of the loose objects: the fields the schema names. */
type Named<T> = T extends readonly (infer U)[]
  ? Named<U>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K]: Named<T[K]> }
    : T;

/** The builder's feed as the answer: the compiler checks that the schema names every field WorkZoneFeed has, with its type. */
function feedAnswer(feed: WorkZoneFeed): FeedAnswer {
  const named: Named<FeedAnswer> = feed;
  return named as FeedAnswer;
}
const emailSchema = z.email();

export function wzdxFeedRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/wzdx/:organizationId/feed',
    {
      schema: {
        summary: "The public WZDx 4.2 Work Zone Feed of a WZDx organization's published closures (no sign-in)",
        params: z.object({ organizationId: z.string() }),
        response: { 200: workZoneFeedAnswer, 404: errorAnswer },
      },
    },
    async (request, reply): Promise<FeedAnswer> => {
      const id = z.uuid().safeParse(request.params.organizationId);
      const [org] = id.success
        ? await db
            .select()
            .from(organizations)
            .where(and(eq(organizations.id, id.data), isNull(organizations.deletedAt)))
            .limit(1)
        : [];
      if (!org || !org.isWzdxOrg) throw notFound('Organization');

      const now = deps.now().getTime();
      const rows = await selectClosures(db, publishingClosuresWhere(org.id));
      const closures = rows.map((row) => fromClosureWire(closureToWire(row), now));
      const email = emailSchema.safeParse(org.email ?? '');
      const contact = {
        ...(org.contactName ? { contact_name: org.contactName } : {}),
        ...(email.success ? { contact_email: email.data } : {}),
      };
      const feedInfo: WzdxFeedInfoInput = {
        publisher: org.name,
        ...contact,
        data_sources: [{ data_source_id: org.id, organization_name: org.name, ...contact }],
      };
      reply.header('cache-control', `public, max-age=${FEED_CACHE_SECONDS}`);
      reply.header('access-control-allow-origin', '*');
      return feedAnswer(buildWzdxFeed(closures, feedInfo, now));
    },
  );
}
