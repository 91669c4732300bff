import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../../server/config';
import { openDatabase, type Database } from '../../server/db/connection';
import { queryRows } from '../../server/db/rows';
import { organizations } from '../../server/db/schema';
import { isUniqueViolation } from '../../server/core/errors';
import { countLoopTurns } from '../support/until';

// The embedded database runs in a worker thread (server/db/pglite-thread.mjs): these hold its
// client to PGlite's own behaviour, and show what the thread is for.
describe('PGlite in its own thread', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: null });
  });
  afterAll(() => database.close());

  it('a long statement leaves the event loop free: timers and I/O go on while it runs', async () => {
    const loop = countLoopTurns();
    const [row] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from generate_series(1, 2000000)`);
    loop.stop();
    expect(row).toEqual({ n: 2_000_000 });
    // In the process the statement ran as one piece of WebAssembly: no turn at all until it ended.
    expect(loop.turns()).toBeGreaterThan(10);
  });

  it('rows come back typed as Drizzle maps them: timestamps as dates, numbers, JSON, nulls', async () => {
    const [org] = await database.db.insert(organizations).values({ name: 'Thread Org', lat: 30.25, lng: -97.75 }).returning();
    expect(org).toMatchObject({ name: 'Thread Org', lat: 30.25, lng: -97.75, parentId: null });
    expect(org!.createdAt).toBeInstanceOf(Date);
    const [json] = await queryRows<{ j: unknown; b: boolean }>(database.db, sql`select '{"a":[1,2]}'::json as j, true as b`);
    expect(json).toEqual({ j: { a: [1, 2] }, b: true });
  });

  it("the database's errors keep their SQLSTATE and constraint (a duplicate is told apart from other failures)", async () => {
    await database.db.execute(sql`create table thread_unique (k text primary key)`);
    await database.db.execute(sql`insert into thread_unique values ('a')`);
    const error = await database.db.execute(sql`insert into thread_unique values ('a')`).catch((caught: unknown) => caught);
    expect(isUniqueViolation(error, 'thread_unique_pkey')).toBe(true);
    const syntax = await database.db.execute(sql`select from where`).catch((caught: unknown) => caught);
    expect(isUniqueViolation(syntax)).toBe(false);
    expect((syntax as { cause?: { code?: string } }).cause?.code).toBe('42601');
  });

  it('a transaction commits what it wrote, or nothing when it fails; other statements wait for it', async () => {
    await database.db.transaction(async (tx) => {
      await tx.insert(organizations).values({ name: 'Committed Org' });
    });
    const failing = database.db.transaction(async (tx) => {
      await tx.insert(organizations).values({ name: 'Rolled Back Org' });
      await tx.execute(sql`select 1 / 0`);
    });
    await expect(failing).rejects.toThrow();
    const names = async (name: string) => (await database.db.select().from(organizations).where(eq(organizations.name, name))).length;
    expect(await names('Committed Org')).toBe(1);
    expect(await names('Rolled Back Org')).toBe(0);

    // A statement sent while a transaction is open runs after it ends and sees what it committed.
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const open = database.db.transaction(async (tx) => {
      await tx.insert(organizations).values({ name: 'Held Org' });
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const outside = names('Held Org');
    release();
    await open;
    expect(await outside).toBe(1);
  });

  it('data written in a folder is there after closing and opening again', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-thread-'));
    try {
      const first = await openDatabase({ dataDir: dir });
      await first.db.insert(organizations).values({ name: 'Kept Org' });
      await first.close();
      const again = await openDatabase({ dataDir: dir });
      expect(await again.db.select({ name: organizations.name }).from(organizations)).toEqual([{ name: 'Kept Org' }]);
      await again.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an idle open database does not keep a script running', () => {
    // A script that opens the database, reads, and ends without closing it exits by itself.
    const script = `(async () => {
      const { sql } = await import('drizzle-orm');
      const { openDatabase } = await import('./server/db/connection.ts');
      const database = await openDatabase({ dataDir: null });
      const result = await database.db.execute(sql.raw('select 41 + 1 as n'));
      console.log('answer', result.rows[0].n);
    })();`;
    const output = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT_DIR, encoding: 'utf8', timeout: 60_000 });
    expect(output).toContain('answer 42');
  });
});
