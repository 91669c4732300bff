import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { MIGRATIONS_DIR, type Db } from '../../db/connection';
import { queryRows } from '../../db/rows';

/** The migrations this release brings (drizzle's journal beside them). */
export function releasedMigrations(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
  return journal.entries.length;
}

/** One trivial query: whether the database answers at all. */
export async function databaseAnswers(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}

/** How many migrations the database has applied (drizzle's own table, on either engine). */
export async function appliedMigrations(db: Db): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  return row?.n ?? 0;
}

/** The job queue for GET /metrics: jobs by status (queued, running, done, failed). */
export async function jobsByStatus(db: Db): Promise<Record<string, number>> {
  const rows = await queryRows<{ status: string; n: number }>(db, sql`select status, count(*)::int as n from jobs group by status`);
  const counts: Record<string, number> = { queued: 0, running: 0, done: 0, failed: 0 };
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}
