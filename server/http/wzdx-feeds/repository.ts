import { and, asc, count, eq, isNull, type SQL } from 'drizzle-orm';
import type { WzdxFeedWire } from '../../../src/domain/wzdx-subscription';
import type { Db } from '../../db/connection';
import { organizations, wzdxFeeds } from '../../db/schema';
import { deleteFeedClosures } from '../../jobs/wzdx-import';
import { orgCondition } from '../organization-scope';
import { WZDX_FEEDS_PER_ORG, type FeedBody } from './schema';

/**
 * The WZDx feed subscriptions' reads and writes, and the subscription wire (`wzdxFeedWireSchema`
 * of src/domain/wzdx-subscription.ts). A subscription of a deleted organization is never read.
 */

// ── wire ─────────────────────────────────────────────────────────────────────

export type FeedRow = typeof wzdxFeeds.$inferSelect;

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

// ── reads ────────────────────────────────────────────────────────────────────

async function selectFeeds(db: Db, where: SQL | undefined) {
  return db
    .select({ feed: wzdxFeeds, organizationName: organizations.name })
    .from(wzdxFeeds)
    .innerJoin(organizations, eq(organizations.id, wzdxFeeds.organizationId))
    .where(and(isNull(organizations.deletedAt), where))
    .orderBy(asc(organizations.name), asc(wzdxFeeds.url), asc(wzdxFeeds.id));
}

/** The subscriptions of the organizations (null: all), by organization name, URL and id. */
export async function listFeeds(db: Db, orgIds: readonly string[] | null): Promise<WzdxFeedWire[]> {
  const rows = await selectFeeds(db, orgCondition(wzdxFeeds.organizationId, orgIds));
  return rows.map((row) => feedWire(row.feed, row.organizationName));
}

/** A subscription, else undefined. */
export async function findFeed(db: Db, id: string): Promise<FeedRow | undefined> {
  const [row] = await selectFeeds(db, eq(wzdxFeeds.id, id));
  return row?.feed;
}

/** A subscription's wire, else undefined. */
export async function findFeedWire(db: Db, id: string): Promise<WzdxFeedWire | undefined> {
  const [row] = await selectFeeds(db, eq(wzdxFeeds.id, id));
  return row ? feedWire(row.feed, row.organizationName) : undefined;
}

// ── writes ───────────────────────────────────────────────────────────────────

/** A subscription the per-organization limit refused. */
export type TooMany = 'too_many';

/**
 * Adds a subscription unless the organization holds WZDX_FEEDS_PER_ORG already ('too_many'); its
 * id (null when nothing was written).
 */
export async function insertFeed(db: Db, orgId: string, values: FeedBody, now: Date): Promise<{ id: string } | TooMany | null> {
  return db.transaction(async (tx): Promise<{ id: string } | TooMany | null> => {
    // Lock the organization's row: two concurrent additions cannot both pass the limit.
    await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, orgId)).for('update');
    const [held] = await tx.select({ n: count() }).from(wzdxFeeds).where(eq(wzdxFeeds.organizationId, orgId));
    if ((held?.n ?? 0) >= WZDX_FEEDS_PER_ORG) return 'too_many';
    const [row] = await tx
      .insert(wzdxFeeds)
      .values({
        organizationId: orgId,
        url: values.url,
        pollIntervalS: values.poll_interval_s,
        enabled: values.enabled,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: wzdxFeeds.id });
    return row ?? null;
  });
}

/** Saves a subscription; a changed URL forgets its last fetch and error (they belonged to the old one). */
export async function updateFeed(db: Db, current: FeedRow, values: FeedBody, now: Date): Promise<void> {
  const moved = values.url !== current.url;
  await db
    .update(wzdxFeeds)
    .set({
      url: values.url,
      pollIntervalS: values.poll_interval_s,
      enabled: values.enabled,
      ...(moved ? { lastFetchedAt: null, lastError: null } : {}),
      updatedAt: now,
    })
    .where(eq(wzdxFeeds.id, current.id));
}

/** Deletes a subscription and its feed closures, in one transaction. */
export async function deleteFeed(db: Db, id: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await deleteFeedClosures(tx, [id], now);
    await tx.delete(wzdxFeeds).where(eq(wzdxFeeds.id, id));
  });
}
