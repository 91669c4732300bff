import { getTableColumns, getTableName, is, SQL, sql, type AnyColumn } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './connection';

/** Runs raw SQL and returns its rows, the same on both engines (PGlite and node-postgres both answer `{ rows }`). */
export async function queryRows<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * `column = any($1::uuid[])`: a list of ids sent as one array parameter. drizzle's `inArray` binds
 * one parameter per id; with a page of 5,000 assets each of the asset wire's batched queries took
 * 25-47 ms on PGlite instead of 8 (bench/README.md "Application bench").
 */
export function anyUuid(column: AnyColumn, ids: readonly string[]): SQL {
  return sql`${column} = any(${sql.param([...ids])}::uuid[])`;
}

/**
 * The edit counter (`version`, schema.ts) of a write: one more than before. Every write of a record
 * a form edits moves it, the scheduled ones included; device messages do not (docs/security.md).
 */
export const nextVersion = (column: AnyColumn): SQL => sql`${column} + 1`;

/** An UPDATE's condition that the record is still at the version a save was made from (none: any). */
export const sameVersion = (column: AnyColumn, expected: number | null): SQL | undefined =>
  expected === null ? undefined : sql`${column} = ${expected}`;

/**
 * Reads a table's rows as Postgres's `row_to_json` writes them into the rows Drizzle's select gives
 * (its keys, each value through the column's own driver mapping: timestamps to Date and the like).
 * On PGlite a wide row costs about 33 µs through the driver's per-column parsing and 14 µs as one
 * JSON text (100,000 assets' rows: 3.3 s and 1.4 s), so a large read can ask for the rows as JSON.
 * The table's columns are listed once, not per row.
 */
export function jsonRowReader<T extends PgTable>(table: T): (json: Record<string, unknown>) => T['$inferSelect'] {
  const columns = Object.entries(getTableColumns(table) as Record<string, PgColumn>);
  return (json) => {
    const record: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = json[column.name];
      record[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return record as T['$inferSelect'];
  };
}

/** Rows per statement of `insertRecords` (one JSON parameter each). */
export const INSERT_CHUNK_ROWS = 1_000;

/**
 * A multi-row insert of up to `chunkRows` rows per statement, the rows travelling as one JSON
 * parameter expanded by `json_populate_recordset` (columns and their database names come from the
 * Drizzle table). Measured on PGlite with 2,000 assets this is about five times faster than
 * `db.insert(table).values(rows)`, whose per-parameter cost dominates at 30,000 parameters a chunk;
 * the rows and their types are the same. A key some rows lack takes the column's literal default,
 * else null (columns with SQL defaults must be given on every row or none). Used by the demo seed
 * and the ingest's trip points.
 */
export async function insertRecords<T extends PgTable>(
  db: Pick<Db, 'execute'>,
  table: T,
  rows: readonly T['$inferInsert'][],
  chunkRows = INSERT_CHUNK_ROWS,
): Promise<void> {
  if (rows.length === 0) return;
  const columns: Record<string, PgColumn> = getTableColumns(table);
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((key) => key in columns);
  const fallback = new Map<string, unknown>();
  for (const key of keys) {
    const column = columns[key] as PgColumn;
    if (column.default !== undefined && !is(column.default, SQL)) fallback.set(key, column.default);
    else if (!column.notNull) fallback.set(key, null);
  }
  const names = sql.join(
    keys.map((key) => sql.identifier((columns[key] as PgColumn).name)),
    sql`, `,
  );
  for (let i = 0; i < rows.length; i += chunkRows) {
    const records = rows.slice(i, i + chunkRows).map((row) => {
      const values = row as Record<string, unknown>;
      const record: Record<string, unknown> = {};
      for (const key of keys) {
        const value = values[key];
        if (value === undefined && !fallback.has(key)) throw new Error(`a row of ${getTableName(table)} lacks ${key}`);
        record[(columns[key] as PgColumn).name] = value === undefined ? fallback.get(key) : value;
      }
      return record;
    });
    await db.execute(
      sql`insert into ${table} (${names}) select ${names} from json_populate_recordset(null::${table}, ${JSON.stringify(records)}::json)`,
    );
  }
}

/**
 * The driver's one-line reason for a failed statement: the database's own message, never the SQL
 * and its parameters that the query builder's error carries (they hold row values: a log must not).
 */
export function failureReason(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const inner = cause instanceof Error ? cause : error;
  return inner instanceof Error ? inner.message : String(inner);
}
