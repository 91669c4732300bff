/**
 * The official WZDx 4.2 Work Zone Feed schema (JSON Schema draft-07) as one ajv validator, for the
 * feed import (server/jobs/wzdx-import.ts). The files in ./schemas are the U.S. DOT's (repository
 * usdot-jpo-ode/wzdx, `schemas/4.2/`: WorkZoneFeed, FeedInfo, RoadEventFeature, Direction,
 * BoundingBox, and the GeoJSON LineString and MultiPoint schemas they reference), copied byte for
 * byte from the project's shared copy (../shared/wzdx/schemas-4.2) so the repository stands alone.
 * Every `$ref` is an absolute URL: each file is registered under its `$id` and nothing is fetched.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

export const WZDX_SCHEMA_DIR = fileURLToPath(new URL('./schemas/', import.meta.url));
export const WZDX_FEED_SCHEMA_ID = 'https://raw.githubusercontent.com/usdot-jpo-ode/wzdx/main/schemas/4.2/WorkZoneFeed.json';

let validator: ValidateFunction | null = null;

/** ajv over every schema file, each registered under its $id; a new Work Zone Feed validator. */
export function createWorkZoneFeedValidator(): ValidateFunction {
  // strictTypes off: the official files put `properties` in `allOf` branches without a type (valid JSON Schema).
  const ajv = new Ajv({ allErrors: true, strictTypes: false });
  addFormats(ajv);
  for (const file of readdirSync(WZDX_SCHEMA_DIR).filter((name) => name.endsWith('.json'))) {
    const schema = JSON.parse(readFileSync(path.join(WZDX_SCHEMA_DIR, file), 'utf8')) as { $id: string };
    ajv.addSchema(schema, schema.$id);
  }
  const found = ajv.getSchema(WZDX_FEED_SCHEMA_ID);
  if (!found) throw new Error(`the WZDx schema ${WZDX_FEED_SCHEMA_ID} is not in ${WZDX_SCHEMA_DIR}`);
  return found;
}

/** The Work Zone Feed's validator, compiled once per process. */
export function workZoneFeedValidator(): ValidateFunction {
  validator ??= createWorkZoneFeedValidator();
  return validator;
}

/** How many of ajv's errors a failed feed's reason names. */
export const SCHEMA_ERRORS_SHOWN = 3;

/** One ajv error in plain words: where in the feed, and what is wrong ("features/0/properties/core_details: must have required property 'direction'"). */
function plainError(error: ErrorObject): string {
  const where = error.instancePath === '' ? 'the feed' : error.instancePath.slice(1);
  const allowed = error.keyword === 'enum' ? ` (${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')})` : '';
  return `${where}: ${error.message ?? 'is invalid'}${allowed}`;
}

/**
 * Validates a parsed feed; null when it is a valid Work Zone Feed, else the reason with the first
 * few errors. A `oneOf` of RoadEventFeature's branches reports every branch's errors: the most
 * specific come first, so the reason leads with them and drops the generic 'must match' lines.
 */
export function workZoneFeedProblem(feed: unknown): string | null {
  const validate = workZoneFeedValidator();
  if (validate(feed)) return null;
  const errors = validate.errors ?? [];
  const specific = errors.filter((error) => !['oneOf', 'anyOf', 'if', 'allOf'].includes(error.keyword));
  const chosen = (specific.length > 0 ? specific : errors).slice(0, SCHEMA_ERRORS_SHOWN).map(plainError);
  const more = errors.length > chosen.length ? ` (and ${errors.length - chosen.length} more)` : '';
  return `The feed is not a valid WZDx 4.2 Work Zone Feed: ${[...new Set(chosen)].join('; ')}${more}`;
}
