import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from './connection';

/** Runs raw SQL and returns its rows, the same on both engines (PGlite and node-postgres both answer `{ rows }`). */
export async function queryRows<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * `column = any($1::uuid[])`: a list of ids sent as one array parameter. drizzle's `inArray` binds
 * one parameter per id; with a page of 5,000 assets each of the asset wire's batched queries took
 * 25-47 ms on PGlite instead of 8 (README "Application bench").
 */
export function anyUuid(column: AnyColumn, ids: readonly string[]): SQL {
  return sql`${column} = any(${sql.param([...ids])}::uuid[])`;
}
