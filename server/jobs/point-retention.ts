import { sql } from 'drizzle-orm';
import { DAY_MS } from '../../src/domain/constants';
import type { Db } from '../db/connection';
import { queryRows } from '../db/rows';
import { points } from '../db/schema';

/**
 * Trip points older than POINT_RETENTION_DAYS (ServerConfig.pointRetentionDays) are deleted
 * (docs/configuration.md); rows per DELETE, so one pass never holds a long lock on a busy table.
 */
export const POINT_RETENTION_BATCH = 10_000;

export function retentionCutoff(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

/** Deletes every point older than `cutoff`, `batchSize` rows at a time; answers how many went. */
export async function deleteOldPoints(db: Db, cutoff: Date, batchSize = POINT_RETENTION_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`with gone as (
            delete from ${points} where ${points.id} in (
              select ${points.id} from ${points} where ${points.timestamp} < ${cutoff} limit ${batchSize}
            ) returning 1
          ) select count(*)::int as n from gone`,
    );
    const deleted = Number(row?.n ?? 0);
    total += deleted;
    if (deleted < batchSize) return total;
  }
}
