/**
 * The official WZDx 4.2 schemas (draft-07) as one ajv validator of a Work Zone Feed, for the tests
 * of the published feed: the repository's vendored copy (server/wzdx/schemas, copied unchanged from
 * the U.S. DOT's usdot-jpo-ode/wzdx `schemas/4.2/`), built by the server's own loader but a fresh
 * ajv per call, independent of the server's cached validator.
 */
import type { ValidateFunction } from 'ajv';
import { createWorkZoneFeedValidator, WZDX_FEED_SCHEMA_ID } from '../../server/wzdx/schema';

export { WZDX_FEED_SCHEMA_ID };

export function wzdxFeedValidator(): ValidateFunction {
  return createWorkZoneFeedValidator();
}
