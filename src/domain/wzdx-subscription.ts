/**
 * WZDx feed subscriptions (beyond the spec): an organization imports other agencies' WZDx 4.x
 * Work Zone Feeds as closures of type feed (part 2 §2 Closures, §4 "closure types automated, feed,
 * manual"; a feed closure is read-only, 'managed by the WZDx feed'). The wire of
 * `GET /organization/wzdx_feeds`, the form's rules and texts, and who may read or change them.
 */
import { z } from 'zod';
import { hasAny, section, type Permission, type PermissionList } from './permissions';
import { parseTime } from './time';
import { MESSAGES } from './validation/messages';

/** The shortest poll interval, in seconds: a feed is not fetched more often than once a minute. */
export const WZDX_FEED_MIN_INTERVAL_S = 60;
/** The longest poll interval (one day). */
export const WZDX_FEED_MAX_INTERVAL_S = 86_400;
export const WZDX_FEED_DEFAULT_INTERVAL_S = 300;
export const WZDX_FEED_URL_MAX = 2000;

export const WZDX_FEED_TEXT = {
  urlScheme: 'Must be an http or https address',
  urlMax: `${WZDX_FEED_URL_MAX} Max Characters`,
  intervalWhole: 'Must be a whole number of seconds',
  intervalMin: `Must be at least ${WZDX_FEED_MIN_INTERVAL_S} seconds`,
  intervalMax: `Must be at most ${WZDX_FEED_MAX_INTERVAL_S} seconds (1 day)`,
  notFound: 'WZDx feed not found',
} as const;

/** Reading subscriptions: whoever reads closures (the closures section's permissions). */
export const WZDX_FEED_READ: readonly Permission[] = section('closures').anyOf;
/**
 * Adding, changing, deleting and refreshing subscriptions: closure manage or haas:manage. A
 * subscription writes closures of every kind of change (create, update, end), so no single
 * create/update/delete permission covers it; manage "sets all four" (part 1 §6).
 */
export const WZDX_FEED_MANAGE: readonly Permission[] = ['closure:manage', 'haas:manage'];

export const canReadWzdxFeeds = (perms: PermissionList): boolean => hasAny(perms, WZDX_FEED_READ);
export const canManageWzdxFeeds = (perms: PermissionList): boolean => hasAny(perms, WZDX_FEED_MANAGE);

/** True for an absolute http(s) address with a host. */
export function isFeedUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The form (and the write body's) rules, with the texts shown under each field. */
export const wzdxFeedFormSchema = z.object({
  url: z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, MESSAGES.required)
    .max(WZDX_FEED_URL_MAX, WZDX_FEED_TEXT.urlMax)
    .refine(isFeedUrl, WZDX_FEED_TEXT.urlScheme),
  poll_interval_s: z
    .number({ error: MESSAGES.required })
    .int(WZDX_FEED_TEXT.intervalWhole)
    .min(WZDX_FEED_MIN_INTERVAL_S, WZDX_FEED_TEXT.intervalMin)
    .max(WZDX_FEED_MAX_INTERVAL_S, WZDX_FEED_TEXT.intervalMax),
  enabled: z.boolean({ error: 'Must be true or false' }),
});
export type WzdxFeedForm = z.infer<typeof wzdxFeedFormSchema>;

export const wzdxFeedWireSchema = z.object({
  id: z.string(),
  organization_id: z.string(),
  organization_name: z.string(),
  url: z.string(),
  poll_interval_s: z.number(),
  enabled: z.boolean(),
  last_fetched_at: z.string().nullable(),
  last_error: z.string().nullable(),
  imported_count: z.number(),
  /** Work zones the last good import left out, and (the first of them) which with their reasons. */
  skipped_count: z.number().default(0),
  skipped: z.array(z.object({ id: z.string(), reason: z.string() })).default([]),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WzdxFeedWire = z.infer<typeof wzdxFeedWireSchema>;

export interface WzdxFeedSubscription {
  id: string;
  orgId: string;
  orgName: string;
  url: string;
  pollIntervalS: number;
  enabled: boolean;
  lastFetchedAt: number | null;
  lastError: string | null;
  importedCount: number;
  skippedCount: number;
  skipped: { id: string; reason: string }[];
}

export function fromWzdxFeedWire(wire: WzdxFeedWire): WzdxFeedSubscription {
  return {
    id: wire.id,
    orgId: wire.organization_id,
    orgName: wire.organization_name,
    url: wire.url,
    pollIntervalS: wire.poll_interval_s,
    enabled: wire.enabled,
    lastFetchedAt: parseTime(wire.last_fetched_at),
    lastError: wire.last_error,
    importedCount: wire.imported_count,
    skippedCount: wire.skipped_count,
    skipped: wire.skipped,
  };
}

/** POST/PUT /organization/wzdx_feeds: the form plus the organization (POST; default the caller's). */
export interface WzdxFeedPayload extends WzdxFeedForm {
  organization_id?: string;
}
