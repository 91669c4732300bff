import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fromClosureWire } from '../../src/domain/closure';
import { buildWzdxFeed, type WorkZoneFeed, type WzdxFeedInfoInput } from '../../src/domain/wzdx';
import { organizations } from '../db/schema';
import type { ServerDeps } from '../deps';
import { closureToWire, publishingClosuresWhere, selectClosures } from './closures/queries';
import { notFound } from './errors';

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
const emailSchema = z.email();

export function wzdxFeedRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/wzdx/:organizationId/feed',
    { schema: { params: z.object({ organizationId: z.string() }) } },
    async (request, reply): Promise<WorkZoneFeed> => {
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
      return buildWzdxFeed(closures, feedInfo, now);
    },
  );
}
