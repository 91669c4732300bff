import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, MINUTE_MS } from '../../src/domain/constants';
import { hashPassword } from '../../server/auth/secrets';
import { openDatabase } from '../../server/db/connection';
import { ensureReferenceData } from '../../server/db/reference-data';
import { exports, jobs, organizations, points, roles, things, thingTypes, users } from '../../server/db/schema';
import { createFileStore, filesDir } from '../../server/files';
import { JOB_LOCK_TIMEOUT_MS, JOB_MAX_ATTEMPTS, startJobRunner } from '../../server/jobs/runner';
import { call } from '../support/account-calls';
import { parseCsv } from '../support/parse-csv';
import { spawnServer, templateDataDir, type SpawnedServer } from '../support/spawn-server';
import { createTestServer, PASSWORD, type TestServer } from '../support/test-server';
import { until } from '../support/until';

/**
 * An export running when its server dies (kill -9) must not stay 'in_progress' for good nor leave
 * its partial file behind: the job is queued again, the export goes back to 'requested', its
 * partial files are removed and it runs to the end; one that has already used its attempts (a
 * crash loop) becomes 'errored' with the reason a user sees for a failed export.
 */

/** Points in the crashed export: enough that the file is still being written when the process is killed. */
const CRASH_POINTS = 150_000;

const tempFiles = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.tmp')) : []);

describe('a real server process killed (SIGKILL) while an export is written', () => {
  let dataDir: string;
  let server: SpawnedServer | null = null;
  let orgId: string;
  let thingId: string;
  const email = 'crash@example.com';

  beforeAll(async () => {
    process.env.LIGHTBAR_FAST_HASH = '1';
    dataDir = templateDataDir('lightbar-crash-');
    // Seed the embedded database the server will open (the lock is released on close).
    const database = await openDatabase({ dataDir });
    try {
      const db = database.db;
      await ensureReferenceData(db);
      const [org] = await db.insert(organizations).values({ name: 'Crash County' }).returning();
      orgId = org!.id;
      const [admin] = await db.select().from(roles).where(eq(roles.name, 'ADMIN'));
      await db.insert(users).values({
        organizationId: orgId,
        email,
        firstname: 'Crash',
        lastname: 'Test',
        roleId: admin!.id,
        passwordHash: await hashPassword(PASSWORD),
        passwordChangedAt: new Date(),
        lastActivityAt: new Date(),
      });
      const [type] = await db.select().from(thingTypes).where(eq(thingTypes.name, 'police'));
      const [thing] = await db
        .insert(things)
        .values({ organizationId: orgId, haasId: 'CRASH-1', nickname: 'Crash 1', thingTypeId: type!.id })
        .returning();
      thingId = thing!.id;
      // Two points a second for about 21 hours, ending an hour ago: all inside the export's last day.
      await db.execute(
        sql`insert into ${points} (thing_id, lat, lng, timestamp)
            select ${thingId}, 30.25, -97.7, now() - interval '1 hour' - (g * interval '500 milliseconds') from generate_series(1, ${CRASH_POINTS}) g`,
      );
    } finally {
      await database.close();
    }
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const start = () => spawnServer({ PORT: '0', DATA_DIR: dataDir, LIGHTBAR_DEMO: '0', SIM_ASSETS: '0', LIGHTBAR_FAST_HASH: '1' }, 120_000);

  async function signIn(url: string): Promise<string> {
    const answer = await fetch(`${url}/user_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'password', application: 'dashboard', username: email, password: PASSWORD }),
    });
    expect(answer.status).toBe(200);
    return ((await answer.json()) as { access_token: string }).access_token;
  }

  async function get(url: string, token: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const answer = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  }

  it('after the restart the export is queued again and completes with every row; no partial file remains', async () => {
    server = await start();
    let token = await signIn(server.url);
    const now = Date.now();
    const created = await fetch(`${server.url}/organization/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        export_type: 'point',
        title: 'Crash export',
        export_start_time: new Date(now - DAY_MS).toISOString(),
        export_end_time: new Date(now - MINUTE_MS).toISOString(),
        use_utc: true,
        organization_id: orgId,
        thing_uuids: [thingId],
      }),
    });
    expect(created.status).toBe(201);
    const exportId = ((await created.json()) as { id: string }).id;

    // The job runner picks it up within a tick; kill the process while the file is being written.
    const dir = filesDir(dataDir);
    await until(() => tempFiles(dir).length > 0, 'the export’s temporary file', 60_000, 2);
    await server.kill();
    server = null;
    expect(tempFiles(dir).length).toBeGreaterThan(0);

    server = await start();
    const url = server.url;
    token = await signIn(url);
    let done: Record<string, unknown> = {};
    for (const started = Date.now(); Date.now() - started < 60_000; await new Promise((resolve) => setTimeout(resolve, 250))) {
      done = (await get(`${url}/organization/export/${exportId}`, token)).body;
      if (done.status === 'completed' || done.status === 'errored') break;
    }
    expect(done.status).toBe('completed');
    const link = await get(`${url}/organization/export/${exportId}?is_downloadable=true`, token);
    expect(link.status).toBe(200);
    const file = await fetch(`${url}${String(link.body.file_url)}`);
    expect(file.status).toBe(200);
    const rows = parseCsv(await file.text());
    expect(rows).toHaveLength(1 + CRASH_POINTS);
    expect(fs.readdirSync(dir)).toEqual([done.file_id]);
  }, 300_000);
});

describe('the job runner recovers exports left in progress (in process, on the suite’s engine)', () => {
  let server: TestServer;
  let orgId: string;
  let token: string;

  beforeAll(async () => {
    server = await createTestServer();
    const org = await server.createOrg({ name: 'Recovery County' });
    orgId = org.id;
    token = await server.signIn((await server.createUser({ org, role: 'ADMIN' })).email);
  }, 120_000);
  afterAll(() => server.close());

  /**
   * The rows and files a process leaves when it dies while an export is written: the job claimed
   * ('running', one attempt used), the export 'in_progress' with the file it was writing, and that
   * file's temporary part on the disk (named as the file store names it, by the dead process's id).
   */
  async function crashedExport(attempts: number): Promise<{ exportId: string; partial: string }> {
    const created = await call(server, 'POST', '/organization/export', token, {
      export_type: 'thing',
      title: 'Interrupted',
      export_start_time: null,
      export_end_time: null,
      use_utc: true,
      organization_id: orgId,
      thing_uuids: [],
    });
    expect(created.status).toBe(201);
    const exportId = String(created.body.id);
    const store = createFileStore(server.dataDir);
    const fileId = store.newId('csv');
    const db = server.database.db;
    await db.update(exports).set({ status: 'in_progress', fileId }).where(eq(exports.id, exportId));
    await db
      .update(jobs)
      .set({ status: 'running', attempts, lockedAt: server.clock.now() })
      .where(sql`${jobs.payload}->>'exportId' = ${exportId}`);
    fs.mkdirSync(store.dir, { recursive: true });
    const partial = path.join(store.dir, `${fileId}.999999.0b5e2f4c-0000-4000-8000-000000000000.tmp`);
    fs.writeFileSync(partial, 'asset_id,name\nHALF');
    return { exportId, partial };
  }

  const exportRow = async (id: string) => (await server.database.db.select().from(exports).where(eq(exports.id, id)))[0]!;

  it('at start-up (recoverAtStart) every export left in progress is queued again, its partial file removed, and it completes', async () => {
    const { exportId, partial } = await crashedExport(1);
    const runner = startJobRunner(server.deps, { engine: server.database.engine, recoverAtStart: true });
    try {
      await runner.runOnce();
    } finally {
      await runner.stop();
    }
    if (server.database.engine === 'postgres') {
      // Several servers may share a Postgres queue: a job whose lock is fresh may be another live
      // server's, so at start-up only locks older than JOB_LOCK_TIMEOUT_MS are taken back (next test).
      expect((await exportRow(exportId)).status).toBe('in_progress');
      await server.database.db.update(exports).set({ status: 'errored' }).where(eq(exports.id, exportId));
      await server.database.db
        .update(jobs)
        .set({ status: 'failed' })
        .where(sql`${jobs.payload}->>'exportId' = ${exportId}`);
      fs.rmSync(partial);
      return;
    }
    // PGlite: the data-dir lock admits one process, so every job still 'running' at start-up is a dead process's.
    const row = await exportRow(exportId);
    expect(row.status).toBe('completed');
    expect(fs.existsSync(partial)).toBe(false);
    expect(await createFileStore(server.dataDir).exists(row.fileId!)).toBe(true);
    expect(tempFiles(filesDir(server.dataDir))).toEqual([]);
  });

  it('a running export whose runner stopped refreshing its lock is recovered once the lock is older than JOB_LOCK_TIMEOUT_MS', async () => {
    const { exportId, partial } = await crashedExport(1);
    const runner = startJobRunner(server.deps, { engine: server.database.engine });
    try {
      // Still fresh: another live server may be writing it.
      await runner.runOnce();
      expect((await exportRow(exportId)).status).toBe('in_progress');
      expect(fs.existsSync(partial)).toBe(true);
      server.clock.advance(JOB_LOCK_TIMEOUT_MS + 1);
      await runner.runOnce();
    } finally {
      await runner.stop();
    }
    expect((await exportRow(exportId)).status).toBe('completed');
    expect(fs.existsSync(partial)).toBe(false);
  });

  it('an export that was interrupted on its last attempt (a crash loop) becomes errored with the failed export reason', async () => {
    const { exportId, partial } = await crashedExport(JOB_MAX_ATTEMPTS);
    const runner = startJobRunner(server.deps, { engine: server.database.engine });
    try {
      // Its process is long gone: the lock is stale on either engine.
      server.clock.advance(JOB_LOCK_TIMEOUT_MS + 1);
      await runner.runOnce();
    } finally {
      await runner.stop();
    }
    const row = await exportRow(exportId);
    expect(row.status).toBe('errored');
    expect(row.error).toBe('The file could not be written. Please try again or contact support.');
    expect(fs.existsSync(partial)).toBe(false);
    const [job] = await server.database.db
      .select()
      .from(jobs)
      .where(sql`${jobs.payload}->>'exportId' = ${exportId}`);
    expect(job!.status).toBe('failed');
    // The wire shows no file for an export that has none.
    const wire = await call(server, 'GET', `/organization/export/${exportId}`, token);
    expect(wire.body.file_id).toBeNull();
  });
});
