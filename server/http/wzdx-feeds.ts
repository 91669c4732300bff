/**
 * WZDx feed subscriptions (beyond the spec; docs/api/areas-closures-zones-trips.md "WZDx feed
 * subscriptions"): an organization imports outside WZDx 4.x Work Zone Feeds as feed closures
 * (part 2 §2 Closures, §4 closure types; the import is server/jobs/wzdx-import.ts).
 *
 *   GET /organization/wzdx_feeds?org_ids[]=..   the subscriptions with their last fetch's outcome
 *   POST /organization/wzdx_feeds               { url, poll_interval_s?, enabled?, organization_id? }
 *   PUT /organization/wzdx_feeds/{id}           { url, poll_interval_s?, enabled? }
 *   DELETE /organization/wzdx_feeds/{id}        its feed closures are deleted with it
 *   POST /organization/wzdx_feeds/{id}/refresh  fetch and import now; answers the subscription
 *
 * Reading needs a closure read permission (the closures section's); writing closure:manage or
 * haas:manage, and write access to the organization (an accessor organization only reads).
 */
import { and, asc, count, eq, isNull, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  WZDX_FEED_DEFAULT_INTERVAL_S,
  WZDX_FEED_MANAGE,
  WZDX_FEED_READ,
  WZDX_FEED_TEXT,
  wzdxFeedFormSchema,
  wzdxFeedWireSchema,
  type WzdxFeedWire,
} from '../../src/domain/wzdx-subscription';
import { canSeeOrg } from '../auth/scope';
import type { Caller } from '../auth/context';
import { organizations, wzdxFeeds } from '../db/schema';
import type { ServerDeps } from '../deps';
import { deleteFeedClosures, importWzdxFeed } from '../jobs/wzdx-import';
import { errorAnswer, forbidden, HttpError, unprocessable } from '../core/errors';
import { listOrgIds, orgAccess, orgCondition, orgIdsQuery, visibleOrganization } from './organization-scope';
import { deletedAnswer, uuidParam } from './query';
import { documentedObject } from './route-validation';

/** An organization subscribes to at most this many feeds. */
export const WZDX_FEEDS_PER_ORG = 20;
const PER_ORG_MESSAGE = `At most ${WZDX_FEEDS_PER_ORG} WZDx feeds per organization`;

const { url, poll_interval_s: pollInterval, enabled } = wzdxFeedFormSchema.shape;
const feedBody = z.object({
  url,
  poll_interval_s: pollInterval.default(WZDX_FEED_DEFAULT_INTERVAL_S),
  enabled: enabled.default(true),
});
const createBody = feedBody.extend({ organization_id: z.uuid({ error: 'must be a uuid' }).optional() });

/** A subscription as every call answers it: the dashboard's own wire schema (src/domain/wzdx-subscription.ts). */
const feedAnswer = wzdxFeedWireSchema;
const feedsAnswer = z.array(wzdxFeedWireSchema);

type FeedRow = typeof wzdxFeeds.$inferSelect;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function feedWire(row: FeedRow, organizationName: string): WzdxFeedWire {
  return {
    id: row.id,
    organization_id: row.organizationId,
    organization_name: organizationName,
    url: row.url,
    poll_interval_s: row.pollIntervalS,
    enabled: row.enabled,
    last_fetched_at: iso(row.lastFetchedAt),
    last_error: row.lastError,
    imported_count: row.importedCount,
    skipped_count: row.skippedCount,
    skipped: row.skipped,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const feedNotFound = () => new HttpError(404, 'not_found', WZDX_FEED_TEXT.notFound);

export function wzdxFeedSubscriptionRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  async function select(where: SQL | undefined) {
    return db
      .select({ feed: wzdxFeeds, organizationName: organizations.name })
      .from(wzdxFeeds)
      .innerJoin(organizations, eq(organizations.id, wzdxFeeds.organizationId))
      .where(and(isNull(organizations.deletedAt), where))
      .orderBy(asc(organizations.name), asc(wzdxFeeds.url), asc(wzdxFeeds.id));
  }

  async function answer(id: string): Promise<WzdxFeedWire> {
    const [row] = await select(eq(wzdxFeeds.id, id));
    if (!row) throw feedNotFound();
    return feedWire(row.feed, row.organizationName);
  }

  /** A subscription of an organization the caller may see (else 404), which the caller may change (else 403). */
  async function writable(caller: Caller, id: string): Promise<FeedRow> {
    const [row] = await select(eq(wzdxFeeds.id, id));
    if (!row || !canSeeOrg(caller.scope, row.feed.organizationId)) throw feedNotFound();
    if (orgAccess(caller.scope, row.feed.organizationId) !== 'write') throw forbidden();
    return row.feed;
  }

  const limits = () => deps.config.wzdxFetch;

  /** The query `org_ids[]` is read by listOrgIds (part 2 §8 "Lists and organization": its own 422 and 404): documented only. */
  api.get(
    '/organization/wzdx_feeds',
    {
      config: { access: WZDX_FEED_READ },
      schema: {
        summary: "The WZDx feed subscriptions of the caller's organizations or of org_ids[], with their last fetch's outcome",
        querystring: documentedObject({ ...orgIdsQuery }),
        response: { 200: feedsAnswer, 404: errorAnswer, 422: errorAnswer },
      },
    },
    async (request) => {
      const orgIds = await listOrgIds(db, request.caller, request.query);
      const rows = await select(orgCondition(wzdxFeeds.organizationId, orgIds));
      return rows.map((row) => feedWire(row.feed, row.organizationName));
    },
  );

  api.post(
    '/organization/wzdx_feeds',
    {
      config: { access: WZDX_FEED_MANAGE },
      schema: {
        summary: 'Subscribe an organization to an outside WZDx feed, imported as feed closures',
        body: createBody,
        response: { 201: feedAnswer, 404: errorAnswer },
      },
    },
    async (request, reply) => {
      const { caller, body } = request;
      const org = await visibleOrganization(db, caller, body.organization_id ?? caller.scope.organizationId);
      if (orgAccess(caller.scope, org.id) !== 'write') throw forbidden();
      const now = deps.now();
      const created = await db.transaction(async (tx) => {
        // Lock the organization's row: two concurrent additions cannot both pass the limit.
        await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, org.id)).for('update');
        const [held] = await tx.select({ n: count() }).from(wzdxFeeds).where(eq(wzdxFeeds.organizationId, org.id));
        if ((held?.n ?? 0) >= WZDX_FEEDS_PER_ORG) return null;
        const [row] = await tx
          .insert(wzdxFeeds)
          .values({
            organizationId: org.id,
            url: body.url,
            pollIntervalS: body.poll_interval_s,
            enabled: body.enabled,
            createdAt: now,
            updatedAt: now,
          })
          .returning({ id: wzdxFeeds.id });
        return row ?? null;
      });
      if (!created) throw unprocessable(`url: ${PER_ORG_MESSAGE}`, 'invalid', { fields: { url: PER_ORG_MESSAGE } });
      reply.code(201);
      return answer(created.id);
    },
  );

  /** A changed URL is fetched on the next tick (its last fetch and error belonged to the old one). */
  api.put(
    '/organization/wzdx_feeds/:id',
    {
      config: { access: WZDX_FEED_MANAGE },
      schema: {
        summary: "Change a subscription's URL, poll interval or enabled flag",
        params: uuidParam,
        body: feedBody,
        response: { 200: feedAnswer, 404: errorAnswer },
      },
    },
    async (request) => {
      const { caller, body } = request;
      const current = await writable(caller, request.params.id);
      const moved = body.url !== current.url;
      await db
        .update(wzdxFeeds)
        .set({
          url: body.url,
          pollIntervalS: body.poll_interval_s,
          enabled: body.enabled,
          ...(moved ? { lastFetchedAt: null, lastError: null } : {}),
          updatedAt: deps.now(),
        })
        .where(eq(wzdxFeeds.id, current.id));
      return answer(current.id);
    },
  );

  /** The subscription's feed closures are deleted with it (the incremental closure list reports them). */
  api.delete(
    '/organization/wzdx_feeds/:id',
    {
      config: { access: WZDX_FEED_MANAGE },
      schema: {
        summary: 'End a subscription; its feed closures are deleted with it',
        params: uuidParam,
        response: { 200: deletedAnswer, 404: errorAnswer },
      },
    },
    async (request) => {
      const current = await writable(request.caller, request.params.id);
      await db.transaction(async (tx) => {
        await deleteFeedClosures(tx, [current.id], deps.now());
        await tx.delete(wzdxFeeds).where(eq(wzdxFeeds.id, current.id));
      });
      return { id: current.id };
    },
  );

  /** Fetches and imports the feed now (a disabled one too); a failed fetch is answered in `last_error`, not as an error. */
  api.post(
    '/organization/wzdx_feeds/:id/refresh',
    {
      config: { access: WZDX_FEED_MANAGE },
      schema: {
        summary: "Fetch and import a subscribed feed now; a failed fetch is the answer's last_error",
        params: uuidParam,
        response: { 200: feedAnswer, 404: errorAnswer },
      },
    },
    async (request) => {
      const current = await writable(request.caller, request.params.id);
      await importWzdxFeed({ db, now: deps.now, limits: limits(), log: request.log }, current);
      return answer(current.id);
    },
  );
}
