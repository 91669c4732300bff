import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_LIMIT_TEXT, CLIENT_ERROR_CODES } from '../../src/domain/errors';
import { EXPORTS_RUNNING_PER_ORGANIZATION, EXPORTS_RUNNING_PER_USER } from '../../src/domain/export';
import fs from 'node:fs';
import { EXPORT_MAX_ROWS, EXPORT_TOO_LARGE_REASON } from '../../src/domain/export';
import { exports, jobs } from '../../server/db/schema';
import { createFileStore } from '../../server/files';
import { writeCsv } from '../../server/jobs/export-csv';
import { JobError } from '../../server/jobs/job-error';
import { startJobRunner, type JobRunner } from '../../server/jobs/runner';
import { call, snapshot } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';

/**
 * Exports cost server time (a month of points is hundreds of thousands of rows), so a user may have
 * at most EXPORTS_RUNNING_PER_USER and an organization EXPORTS_RUNNING_PER_ORGANIZATION exports
 * running (requested or in progress) at once; one more is refused with 429 and nothing is queued.
 */
let server: TestServer;
let runner: JobRunner;

beforeAll(async () => {
  server = await createTestServer();
  runner = startJobRunner(server.deps, { engine: server.database.engine });
}, 120_000);
afterAll(async () => {
  await runner.stop();
  await server.close();
});

const assetExport = (orgId: string) => ({
  export_type: 'thing',
  title: 'Assets',
  export_start_time: null,
  export_end_time: null,
  use_utc: true,
  organization_id: orgId,
  thing_uuids: [],
});

const state = async () => `${await snapshot(server, exports, exports.id)}${await snapshot(server, jobs, jobs.id)}`;

describe('export limits: running exports per user and per organization', () => {
  it(`a read-only User gets ${EXPORTS_RUNNING_PER_USER} running exports; the next is refused (429 export_limit) until one finishes`, async () => {
    const org = await server.createOrg();
    const token = await server.signIn((await server.createUser({ org, role: 'USER' })).email);
    for (let i = 0; i < EXPORTS_RUNNING_PER_USER; i++) {
      expect((await call(server, 'POST', '/organization/export', token, assetExport(org.id))).status).toBe(201);
    }
    const before = await state();
    const refused = await call(server, 'POST', '/organization/export', token, assetExport(org.id));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: CLIENT_ERROR_CODES.exportLimit, message: EXPORT_LIMIT_TEXT.user });
    expect(await state()).toBe(before);

    // Once they have run, the user may ask again.
    await runner.runOnce();
    expect((await call(server, 'POST', '/organization/export', token, assetExport(org.id))).status).toBe(201);
  });

  it('deleting a waiting export frees its place', async () => {
    const org = await server.createOrg();
    const token = await server.signIn((await server.createUser({ org, role: 'USER' })).email);
    const ids: string[] = [];
    for (let i = 0; i < EXPORTS_RUNNING_PER_USER; i++) {
      ids.push(String((await call(server, 'POST', '/organization/export', token, assetExport(org.id))).body.id));
    }
    expect((await call(server, 'POST', '/organization/export', token, assetExport(org.id))).status).toBe(429);
    expect((await call(server, 'DELETE', `/organization/export/${ids[0]}`, token)).status).toBe(200);
    expect((await call(server, 'POST', '/organization/export', token, assetExport(org.id))).status).toBe(201);
    await runner.runOnce();
  });

  it(`an organization gets ${EXPORTS_RUNNING_PER_ORGANIZATION} running exports across its users; another organization is not affected`, async () => {
    const org = await server.createOrg();
    const other = await server.createOrg();
    const users = Math.ceil((EXPORTS_RUNNING_PER_ORGANIZATION + 1) / EXPORTS_RUNNING_PER_USER) + 1;
    const tokens: string[] = [];
    for (let i = 0; i < users; i++) tokens.push(await server.signIn((await server.createUser({ org, role: 'ADMIN' })).email));
    let accepted = 0;
    for (const token of tokens) {
      for (let i = 0; i < EXPORTS_RUNNING_PER_USER && accepted < EXPORTS_RUNNING_PER_ORGANIZATION; i++) {
        expect((await call(server, 'POST', '/organization/export', token, assetExport(org.id))).status).toBe(201);
        accepted += 1;
      }
    }
    const before = await state();
    const refused = await call(server, 'POST', '/organization/export', tokens[tokens.length - 1]!, assetExport(org.id));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: CLIENT_ERROR_CODES.exportLimit, message: EXPORT_LIMIT_TEXT.organization });
    expect(await state()).toBe(before);

    const otherToken = await server.signIn((await server.createUser({ org: other, role: 'ADMIN' })).email);
    expect((await call(server, 'POST', '/organization/export', otherToken, assetExport(other.id))).status).toBe(201);
    await runner.runOnce();
    expect((await call(server, 'POST', '/organization/export', tokens[tokens.length - 1]!, assetExport(org.id))).status).toBe(201);
    await runner.runOnce();
  });

  it('concurrent requests cannot slip past the limit', async () => {
    const org = await server.createOrg();
    const token = await server.signIn((await server.createUser({ org, role: 'USER' })).email);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call(server, 'POST', '/organization/export', token, assetExport(org.id))),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(EXPORTS_RUNNING_PER_USER);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(6 - EXPORTS_RUNNING_PER_USER);
    await runner.runOnce();
  });
});

describe('export limits: the size of one export', () => {
  async function* numbered(count: number): AsyncIterable<(string | number)[]> {
    for (let i = 1; i <= count; i++) yield [i, `row ${i}`];
  }

  it(`the spec bounds the range (31 days) and the server the assets (1000); the rows written are bounded too (EXPORT_MAX_ROWS = ${EXPORT_MAX_ROWS})`, async () => {
    const store = createFileStore(server.dataDir);
    const cap = 3;
    // At the bound: written.
    const fits = store.newId('csv');
    expect(await writeCsv(store, fits, { columns: ['n', 'text'], rows: numbered(cap) }, cap)).toBe(cap);
    expect((await store.read(fits))!.toString()).toBe('n,text\n1,row 1\n2,row 2\n3,row 3\n');
    // One row more: the export stops with a reason a user can act on, and leaves no file.
    const over = store.newId('csv');
    const failure = await writeCsv(store, over, { columns: ['n', 'text'], rows: numbered(cap + 1) }, cap).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(JobError);
    expect((failure as Error).message).toBe(EXPORT_TOO_LARGE_REASON);
    expect(await store.exists(over)).toBe(false);
    expect(fs.readdirSync(store.dir).filter((name) => name.startsWith(over))).toEqual([]);
  });
});
