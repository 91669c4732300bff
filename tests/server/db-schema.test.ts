import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/connection';
import { MIGRATIONS_DIR } from '../../server/db/connection';
import { queryRows } from '../../server/db/rows';
import { organizations, users, roles } from '../../server/db/schema';
import { openTestDatabase, TEST_ENGINE } from '../support/test-db';
import { ROOT_DIR } from '../../server/config';

describe(`database (${TEST_ENGINE})`, () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('migrations create every table of the schema', async () => {
    const rows = await queryRows<{ table_name: string }>(
      database.db,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    const names = rows.map((row) => row.table_name);
    for (const table of [
      'organizations',
      'users',
      'roles',
      'tokens',
      'things',
      'locations',
      'areas',
      'ez_types',
      'closures',
      'alerting_zones',
      'runs',
      'points',
      'exports',
      'monthly_reports',
      'api_keys',
      'device_configs',
      'mail_outbox',
      'password_history',
      'hazards',
      'r2r_alerts',
      'jobs',
    ]) {
      expect(names).toContain(table);
    }
  });

  it('e-mail addresses are unique regardless of case', async () => {
    const [org] = await database.db.insert(organizations).values({ name: 'Unique Org' }).returning();
    const [role] = await database.db.insert(roles).values({ name: 'UNIQUE TEST', permissions: [] }).returning();
    const base = { organizationId: org!.id, firstname: 'A', lastname: 'B', roleId: role!.id };
    await database.db.insert(users).values({ ...base, email: 'Same@Example.com' });
    await expect(database.db.insert(users).values({ ...base, email: 'same@example.com' })).rejects.toThrow();
  });
});

describe('migrations match the schema', () => {
  it('drizzle-kit finds nothing new to generate from server/db/schema.ts', () => {
    // Generate into a scratch copy: a drifted schema would produce a new migration file there.
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-migrations-'));
    fs.cpSync(MIGRATIONS_DIR, scratch, { recursive: true });
    const before = fs.readdirSync(scratch).filter((name) => name.endsWith('.sql'));
    const config = path.join(scratch, 'drizzle.config.json');
    fs.writeFileSync(config, JSON.stringify({ dialect: 'postgresql', schema: './server/db/schema.ts', out: scratch }));
    execFileSync(process.execPath, [path.join(ROOT_DIR, 'node_modules', 'drizzle-kit', 'bin.cjs'), 'generate', '--config', config], {
      cwd: ROOT_DIR,
      stdio: 'pipe',
    });
    const after = fs.readdirSync(scratch).filter((name) => name.endsWith('.sql'));
    fs.rmSync(scratch, { recursive: true, force: true });
    expect(after).toEqual(before);
  }, 60_000);
});
