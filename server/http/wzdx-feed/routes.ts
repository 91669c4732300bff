import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { buildWzdxFeed } from '../../../src/domain/wzdx';
import type { ServerDeps } from '../../deps';
import { errorAnswer, notFound } from '../../core/errors';
import { feedInfoOf, findWzdxOrganization, listPublishingClosures } from './repository';
import { FEED_CACHE_SECONDS, feedAnswer, type FeedAnswer, feedPath, workZoneFeedAnswer } from './schema';

/**
 * GET /wzdx/{organizationId}/feed — the public WZDx 4.2 Work Zone Feed of a WZDx organization
 * (part 2 §1 "Closures can be published to a work-zone data exchange (WZDx) feed").
 *
 * No sign-in: feeds are read by third parties (navigation apps, state DOT aggregators), which is
 * the point of publishing. It lists only what the organization chose to publish (closures with a
 * WZDx id, built by src/domain/wzdx.ts's `buildWzdxFeed`, which also decides which are in effect
 * or planned). An unknown organization, or one that is not a WZDx organization, is 404.
 */
export function wzdxFeedRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/wzdx/:organizationId/feed',
    {
      schema: {
        summary: "The public WZDx 4.2 Work Zone Feed of a WZDx organization's published closures (no sign-in)",
        params: feedPath,
        response: { 200: workZoneFeedAnswer, 404: errorAnswer },
      },
    },
    async (request, reply): Promise<FeedAnswer> => {
      const org = await findWzdxOrganization(db, request.params.organizationId);
      if (!org) throw notFound('Organization');
      const now = deps.now().getTime();
      const closures = await listPublishingClosures(db, org.id, now);
      reply.header('cache-control', `public, max-age=${FEED_CACHE_SECONDS}`);
      reply.header('access-control-allow-origin', '*');
      return feedAnswer(buildWzdxFeed(closures, feedInfoOf(org), now));
    },
  );
}
