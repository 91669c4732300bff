import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorText } from '../../src/domain/errors';
import { monthlyReportWireSchema } from '../../src/domain/monthly-report';
import { monthlyReports } from '../../server/db/schema';
import { createFileStore } from '../../server/files';
import { generateMonthlyReport } from '../../server/jobs/monthly-report-pdf';
import { call, refusedTokens, snapshot } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
let orgA: { id: string };
let childA: { id: string };
let orgB: { id: string };
let orgM: { id: string };
const token = { adminA: '', plainA: '', mediaA: '', adminB: '', managerM: '', engineer: '' };
let refused: { revoked: string; expired: string };
/** file ids by organization and month */
const files: Record<string, string> = {};

async function report(orgId: string, year: number, month: number): Promise<string> {
  const fileId = await generateMonthlyReport(server.deps, { organizationId: orgId, year, month });
  files[`${orgId}:${year}-${month}`] = fileId;
  return fileId;
}

beforeAll(async () => {
  server = await createTestServer();
  orgA = await server.createOrg({ name: 'Alpha County' });
  childA = await server.createOrg({ name: 'alpha Fire District', parentId: orgA.id });
  orgB = await server.createOrg({ name: 'Bravo City' });
  orgM = await server.createOrg({ name: 'Metro Manager' });
  await server.relate(orgA.id, orgM.id, 'manager');
  const users = {
    adminA: await server.createUser({ org: orgA, role: 'ADMIN' }),
    plainA: await server.createUser({ org: orgA, role: 'USER' }),
    mediaA: await server.createUser({ org: orgA, role: 'USER (Incidents / Events only)' }),
    adminB: await server.createUser({ org: orgB, role: 'ADMIN' }),
    managerM: await server.createUser({ org: orgM, role: 'ADMIN' }),
    engineer: await server.createUser({ org: orgB, role: 'ENGINEER' }),
  };
  for (const key of Object.keys(users) as (keyof typeof users)[]) token[key] = await server.signIn(users[key].email);
  refused = await refusedTokens(server, users.adminA);
  await report(orgA.id, 2025, 12);
  await report(orgA.id, 2026, 9);
  await report(orgA.id, 2026, 10);
  await report(childA.id, 2026, 10);
  await report(orgB.id, 2026, 10);
}, 120_000);
afterAll(() => server.close());

const listUrl = (orgId: string) => `/reports/${orgId}/organization_monthly_report_list`;
const linkUrl = (fileId: string) => `/reports/organization_monthly_report_pdf_link?filename=${encodeURIComponent(fileId)}`;
const reportsSnapshot = () => snapshot(server, monthlyReports, monthlyReports.id);

describe('part2 §7 authorization matrix: no, revoked or expired token → 401', () => {
  it.each([
    ['list', () => listUrl(orgA.id)],
    ['pdf link', () => linkUrl(files[`${orgA.id}:2026-10`]!)],
  ])('%s', async (_name, url) => {
    for (const bearer of [null, refused.revoked, refused.expired]) {
      expect((await call(server, 'GET', url(), bearer)).status).toBe(401);
    }
  });
});

describe('part2 §7 GET /reports/{orgId}/organization_monthly_report_list', () => {
  it('part2 §3 lists the organization’s and its child organizations’ reports: year and month descending, then organization name', async () => {
    const answer = await call(server, 'GET', listUrl(orgA.id), token.plainA);
    expect(answer.status).toBe(200);
    const list = monthlyReportWireSchema.array().parse(answer.json);
    expect(list.map((r) => [r.year, r.month, r.organization_name])).toEqual([
      [2026, 10, 'Alpha County'],
      [2026, 10, 'alpha Fire District'],
      [2026, 9, 'Alpha County'],
      [2025, 12, 'Alpha County'],
    ]);
    expect(list[0]).toEqual({
      year: 2026,
      month: 10,
      file_id: files[`${orgA.id}:2026-10`],
      organization_id: orgA.id,
      organization_name: 'Alpha County',
    });
    expect(list.every((r) => r.file_id.endsWith('.pdf'))).toBe(true);
  });

  it('a managing organization sees the managed organization’s reports (not its children’s); haas:manage sees any', async () => {
    const managed = monthlyReportWireSchema.array().parse((await call(server, 'GET', listUrl(orgA.id), token.managerM)).json);
    expect(managed.map((r) => r.organization_id)).toEqual([orgA.id, orgA.id, orgA.id]);
    const engineer = await call(server, 'GET', listUrl(orgA.id), token.engineer);
    expect(engineer.status).toBe(200);
    expect((engineer.json as unknown[]).length).toBe(4);
  });

  it('part2 §8 a user of another organization, an unknown or a malformed id → 404 Organization not found', async () => {
    for (const [bearer, orgId] of [
      [token.adminB, orgA.id],
      [token.adminA, '00000000-0000-4000-8000-000000000000'],
      [token.adminA, 'not-an-id'],
    ] as const) {
      const answer = await call(server, 'GET', listUrl(orgId), bearer);
      expect(answer.status).toBe(404);
      expect(answer.json).not.toBeInstanceOf(Array);
      expect(errorText('lists', { status: answer.status }).text).toBe('Organization not found');
      // The reports context shows the server's message, which is the same words.
      expect(errorText('reports', { status: answer.status, message: answer.body.message }).text).toBe('Organization not found');
    }
  });

  it('a user lacking every report permission (Media) → 403', async () => {
    expect((await call(server, 'GET', listUrl(orgA.id), token.mediaA)).status).toBe(403);
  });
});

describe('part2 §7 GET /reports/organization_monthly_report_pdf_link?filename=', () => {
  it('answers a signed file_url that downloads the PDF without a bearer', async () => {
    const fileId = files[`${orgA.id}:2026-10`]!;
    const answer = await call(server, 'GET', linkUrl(fileId), token.plainA);
    expect(answer.status).toBe(200);
    const fileUrl = String(answer.body.file_url);
    expect(fileUrl).toMatch(new RegExp(`^/files/${fileId.replace('.', '\\.')}\\?expires=\\d+&signature=[\\w-]+$`));
    const file = await server.app.inject({ method: 'GET', url: fileUrl });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toContain('attachment; filename="Alpha County October 2026.pdf"');
    expect(file.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('part2 §8 another organization’s file, an unknown name or a file gone from the disk → 404 File not found', async () => {
    const gone = await report(orgA.id, 2024, 1);
    await createFileStore(server.dataDir).remove(gone);
    for (const [bearer, name] of [
      [token.adminB, files[`${orgA.id}:2026-10`]!],
      [token.adminA, files[`${orgB.id}:2026-10`]!],
      [token.adminA, '00000000-0000-4000-8000-000000000000.pdf'],
      [token.adminA, '../link-secret'],
      [token.adminA, gone],
    ] as const) {
      const answer = await call(server, 'GET', linkUrl(name), bearer);
      expect(answer.status).toBe(404);
      expect(answer.body.file_url).toBeUndefined();
      expect(errorText('reportFile', { status: answer.status, message: answer.body.message }).text).toBe('File not found');
    }
  });

  it('a missing filename → 422 naming it; Media → 403; nothing changed', async () => {
    const before = await reportsSnapshot();
    const missing = await call(server, 'GET', '/reports/organization_monthly_report_pdf_link', token.adminA);
    expect(missing.status).toBe(422);
    expect(missing.body.message).toBe('filename: Required');
    expect((await call(server, 'GET', linkUrl(files[`${orgA.id}:2026-10`]!), token.mediaA)).status).toBe(403);
    expect(await reportsSnapshot()).toBe(before);
  });
});
