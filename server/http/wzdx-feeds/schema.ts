import { z } from 'zod';
import {
  WZDX_FEED_DEFAULT_INTERVAL_S,
  WZDX_FEED_TEXT,
  wzdxFeedFormSchema,
  wzdxFeedWireSchema,
} from '../../../src/domain/wzdx-subscription';
import { HttpError, unprocessable } from '../../core/errors';

/**
 * The WZDx feed subscription calls' bodies, answers and texts (docs/api/areas-closures-zones-trips.md
 * "WZDx feed subscriptions"): the dashboard's form rules (src/domain/wzdx-subscription.ts) and the
 * server's own limit of feeds per organization.
 */

/** An organization subscribes to at most this many feeds. */
export const WZDX_FEEDS_PER_ORG = 20;
const PER_ORG_MESSAGE = `At most ${WZDX_FEEDS_PER_ORG} WZDx feeds per organization`;

const { url, poll_interval_s: pollInterval, enabled } = wzdxFeedFormSchema.shape;
export const feedBody = z.object({
  url,
  poll_interval_s: pollInterval.default(WZDX_FEED_DEFAULT_INTERVAL_S),
  enabled: enabled.default(true),
});
export type FeedBody = z.output<typeof feedBody>;
export const createBody = feedBody.extend({ organization_id: z.uuid({ error: 'must be a uuid' }).optional() });

/** A subscription as every call answers it: the dashboard's own wire schema (src/domain/wzdx-subscription.ts). */
export const feedAnswer = wzdxFeedWireSchema;
export const feedsAnswer = z.array(wzdxFeedWireSchema);

/** 404 'WZDx feed not found'. */
export const feedNotFound = () => new HttpError(404, 'not_found', WZDX_FEED_TEXT.notFound);

/** 422 on the url: the organization holds WZDX_FEEDS_PER_ORG subscriptions already. */
export const tooManyFeeds = () => unprocessable(`url: ${PER_ORG_MESSAGE}`, 'invalid', { fields: { url: PER_ORG_MESSAGE } });
