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
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { WZDX_FEED_MANAGE, WZDX_FEED_READ, type WzdxFeedWire } from '../../../src/domain/wzdx-subscription';
import { canSeeOrg } from '../../auth/scope';
import type { Caller } from '../../auth/context';
import type { ServerDeps } from '../../deps';
import { importWzdxFeed } from '../../jobs/wzdx-import';
import { errorAnswer, forbidden } from '../../core/errors';
import { listOrgIds, orgAccess, orgIdsQuery, visibleOrganization } from '../organization-scope';
import { deletedAnswer, uuidParam } from '../query';
import { documentedObject } from '../route-validation';
import { deleteFeed, type FeedRow, findFeed, findFeedWire, insertFeed, listFeeds, updateFeed } from './repository';
import { createBody, feedAnswer, feedBody, feedNotFound, feedsAnswer, tooManyFeeds } from './schema';

export function wzdxFeedSubscriptionRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  /** A subscription's answer, or 404 'WZDx feed not found'. */
  async function answer(id: string): Promise<WzdxFeedWire> {
    const wire = await findFeedWire(db, id);
    if (!wire) throw feedNotFound();
    return wire;
  }

  /** A subscription of an organization the caller may see (else 404), which the caller may change (else 403). */
  async function writable(caller: Caller, id: string): Promise<FeedRow> {
    const feed = await findFeed(db, id);
    if (!feed || !canSeeOrg(caller.scope, feed.organizationId)) throw feedNotFound();
    if (orgAccess(caller.scope, feed.organizationId) !== 'write') throw forbidden();
    return feed;
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
    async (request) => listFeeds(db, await listOrgIds(db, request.caller, request.query)),
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
      const created = await insertFeed(db, org.id, body, deps.now());
      if (!created || created === 'too_many') throw tooManyFeeds();
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
      const current = await writable(request.caller, request.params.id);
      await updateFeed(db, current, request.body, deps.now());
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
      await deleteFeed(db, current.id, deps.now());
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
