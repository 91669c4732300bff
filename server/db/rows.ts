import type { SQL } from 'drizzle-orm';
import type { Db } from './connection';

/** Runs raw SQL and returns its rows, the same on both engines (PGlite and node-postgres both answer `{ rows }`). */
export async function queryRows<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
