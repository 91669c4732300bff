import { and, eq, gt, isNull, lt, lte, or } from 'drizzle-orm';
import type { Db } from '../db/connection';
import { nextVersion } from '../db/rows';
import { closures } from '../db/schema';

/**
 * Scheduled closures (part 2 §4 "Closure form modes: Scheduled: start and end times"): a closure
 * whose start has come and whose end has not becomes active, once per scheduled start; an active
 * closure past its end time becomes inactive. Both bump `updated_at`, so the incremental closure
 * list (`last_updated_timestamp`) carries the change. Run on every tick of the job runner.
 *
 * "Once per scheduled start": a closure fires when `last_start_time` is before its `start_time`
 * (or unset), and firing sets `last_start_time` to now. So a user who switches a running
 * scheduled closure off inside its window is not overruled on the next tick.
 */
export interface ClosureScheduleResult {
  activated: string[];
  deactivated: string[];
}

export async function applyClosureSchedule(db: Db, now: Date): Promise<ClosureScheduleResult> {
  const activated = await db
    .update(closures)
    .set({ isActive: true, lastStartTime: now, updatedAt: now, version: nextVersion(closures.version) })
    .where(
      and(
        isNull(closures.deletedAt),
        eq(closures.isActive, false),
        lte(closures.startTime, now),
        gt(closures.endTime, now),
        or(isNull(closures.lastStartTime), lt(closures.lastStartTime, closures.startTime)),
      ),
    )
    .returning({ id: closures.id });
  const deactivated = await db
    .update(closures)
    .set({ isActive: false, updatedAt: now, version: nextVersion(closures.version) })
    .where(and(isNull(closures.deletedAt), eq(closures.isActive, true), lte(closures.endTime, now)))
    .returning({ id: closures.id });
  return { activated: activated.map((row) => row.id), deactivated: deactivated.map((row) => row.id) };
}
