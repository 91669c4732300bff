import fs from 'node:fs';
import zlib from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../src/domain/constants';
import { errorText } from '../../src/domain/errors';
import { exportWireSchema, fromExportWire } from '../../src/domain/export';
import {
  closures,
  exports,
  hazards,
  jobs,
  locations,
  monthlyReports,
  points,
  r2rAlerts,
  runs,
  things,
  thingTypes,
} from '../../server/db/schema';
import { createFileStore, filesDir } from '../../server/files';
import { applyClosureSchedule } from '../../server/jobs/closure-schedule';
import {
  formatDuration,
  generateMonthlyReport,
  monthlyFigures,
  monthRange,
  previousMonth,
  renderReportPdf,
  reportContent,
} from '../../server/jobs/monthly-report-pdf';
import { deleteOldPoints } from '../../server/jobs/point-retention';
import { readConfig } from '../../server/config';
import { JOB_BACKOFF_MS, JOB_MAX_ATTEMPTS, enqueueJob, startJobRunner } from '../../server/jobs/runner';
import { call } from '../support/account-calls';
import { createTestServer, TestClock, type TestServer } from '../support/test-server';

let server: TestServer;
let orgA: { id: string };
let adminA: { id: string; email: string };
const START = Date.UTC(2026, 10, 22, 12, 0, 0);

async function thingOf(orgId: string, haasId: string, type: string, createdAt: Date): Promise<string> {
  const [row] = await server.database.db.select().from(thingTypes).where(eq(thingTypes.name, type));
  const [thing] = await server.database.db
    .insert(things)
    .values({ organizationId: orgId, haasId, nickname: haasId, thingTypeId: row!.id, createdAt })
    .returning({ id: things.id });
  return thing!.id;
}

beforeAll(async () => {
  server = await createTestServer();
  orgA = await server.createOrg({ name: 'Alpha County', timezone: 'America/Chicago', createdAt: new Date(Date.UTC(2025, 0, 1)) });
  adminA = await server.createUser({ org: orgA, role: 'ADMIN' });
}, 120_000);
afterAll(() => server.close());

/**
 * The text a PDF draws, one entry per text object: pdfkit writes Flate-compressed content streams
 * whose `[<hex> kern <hex>] TJ` arrays hold WinAnsi-encoded strings (pdftotext is not installed).
 */
function pdfText(pdf: Buffer): string[] {
  const raw = pdf.toString('latin1');
  // WinAnsi differs from Latin-1 in 0x80–0x9F; the report uses only its dashes and quotes there.
  const WIN_ANSI: Record<string, string> = { '\x91': '‘', '\x92': '’', '\x93': '“', '\x94': '”', '\x96': '–', '\x97': '—' };
  const winAnsi = { decode: (bytes: Buffer) => bytes.toString('latin1').replace(/[\x91-\x97]/g, (c) => WIN_ANSI[c] ?? c) };
  const texts: string[] = [];
  for (const stream of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = zlib.inflateSync(Buffer.from(stream[1]!, 'latin1')).toString('latin1');
    } catch {
      continue; // not a compressed content stream
    }
    for (const array of content.matchAll(/\[((?:<[0-9a-f]*>|\s|-?[\d.]+)*)\]\s*TJ/g)) {
      const hex = [...array[1]!.matchAll(/<([0-9a-f]*)>/g)].map((m) => m[1]!).join('');
      texts.push(winAnsi.decode(Buffer.from(hex, 'hex')));
    }
  }
  return texts;
}

/** Each test starts from the same moment; tests move it as they need. */
function resetClock(ms = START): TestClock {
  server.clock.ms = ms;
  return server.clock;
}

describe('jobs: monthly report PDFs', () => {
  it('the month runs in the organization’s time zone', () => {
    expect(monthRange(2026, 10, 'America/Chicago')).toEqual({
      start: new Date('2026-10-01T05:00:00Z'),
      end: new Date('2026-11-01T05:00:00Z'),
    });
    expect(monthRange(2026, 12, 'UTC')).toEqual({ start: new Date('2026-12-01T00:00:00Z'), end: new Date('2027-01-01T00:00:00Z') });
    expect(previousMonth(new Date('2026-01-01T00:00:00Z'))).toEqual({ year: 2025, month: 12 });
    expect(previousMonth(new Date('2026-11-22T12:00:00Z'))).toEqual({ year: 2026, month: 10 });
    expect(formatDuration(45_296)).toBe('12 h 35 min');
  });

  it('counts the month’s figures of the organization and draws them into a real PDF', async () => {
    resetClock();
    const db = server.database.db;
    const org = await server.createOrg({ name: 'Figures County', timezone: 'UTC', createdAt: new Date(Date.UTC(2025, 0, 1)) });
    const other = await server.createOrg({ name: 'Elsewhere' });
    const oct = (day: number, hour = 12) => new Date(Date.UTC(2026, 9, day, hour));
    const police = await thingOf(org.id, 'FIG-P1', 'police', oct(1));
    await thingOf(org.id, 'FIG-P2', 'police', oct(2));
    const plow = await thingOf(org.id, 'FIG-M1', 'maintenance', oct(3));
    await thingOf(org.id, 'FIG-LATE', 'tow', new Date(Date.UTC(2026, 10, 5))); // joined after October
    const elsewhere = await thingOf(other.id, 'FIG-X1', 'police', oct(1));
    await db.insert(locations).values([
      { organizationId: org.id, lat: 1, lng: 1, startTime: oct(4) },
      { organizationId: org.id, lat: 1, lng: 1, startTime: oct(31, 23) },
      { organizationId: org.id, lat: 1, lng: 1, startTime: new Date(Date.UTC(2026, 10, 1)) }, // November
      { organizationId: other.id, lat: 1, lng: 1, startTime: oct(4) },
    ]);
    await db.insert(closures).values([
      {
        organizationId: org.id,
        closureType: 'manual',
        description: 'Active all month',
        isActive: true,
        lastStartTime: oct(1),
        endTime: null,
      },
      {
        organizationId: org.id,
        closureType: 'manual',
        description: 'Ended in September',
        lastStartTime: new Date(Date.UTC(2026, 8, 1)),
        endTime: new Date(Date.UTC(2026, 8, 30)),
      },
      {
        organizationId: org.id,
        closureType: 'manual',
        description: 'Never started',
        startTime: new Date(Date.UTC(2026, 11, 1)),
        endTime: new Date(Date.UTC(2026, 11, 2)),
      },
    ]);
    await db.insert(runs).values([
      { thingId: police, runStart: oct(5, 8), runEnd: oct(5, 10), isActive: false },
      { thingId: plow, runStart: oct(6, 8), runEnd: new Date(oct(6, 8).getTime() + 30 * MINUTE_MS), isActive: false },
      { thingId: plow, runStart: new Date(Date.UTC(2026, 8, 6)), runEnd: new Date(Date.UTC(2026, 8, 7)), isActive: false },
      { thingId: elsewhere, runStart: oct(5, 8), runEnd: oct(5, 9), isActive: false },
    ]);
    await db.insert(hazards).values([
      { organizationId: org.id, hazardType: 'ice', severity: 'high', lat: 1, lng: 1, reportedAt: oct(7) },
      { organizationId: org.id, hazardType: 'debris', severity: 'low', lat: 1, lng: 1, reportedAt: oct(8) },
      { organizationId: org.id, hazardType: 'debris', severity: 'low', lat: 1, lng: 1, reportedAt: oct(9) },
    ]);
    await db.insert(r2rAlerts).values([
      { organizationId: org.id, thingId: police, alertTime: oct(10), delivered: true },
      { organizationId: org.id, thingId: police, alertTime: oct(11), delivered: false },
      { organizationId: org.id, thingId: police, alertTime: oct(12), isTest: true },
    ]);

    const figures = await monthlyFigures(db, { organizationId: org.id, year: 2026, month: 10 }, server.clock.now());
    const content = reportContent(figures!);
    expect(content.title).toBe('Lightbar monthly report');
    expect(content.subtitle).toBe('Figures County — October 2026');
    expect(content.period).toBe('2026-10-01 to 2026-10-31 (UTC)');
    expect(content.sections).toEqual([
      {
        heading: 'Assets by type',
        rows: [
          ['Maintenance', '1'],
          ['Police', '2'],
          ['Total assets', '3'],
        ],
      },
      {
        heading: 'Activity',
        rows: [
          ['Incidents opened', '2'],
          ['Closures active', '1'],
          ['Runs', '2'],
          ['Total run time', '2 h 30 min'],
        ],
      },
      {
        heading: 'Hazards',
        rows: [
          ['Low', '2'],
          ['Medium', '0'],
          ['High', '1'],
          ['Total hazards', '3'],
        ],
      },
      {
        heading: 'R2R alerts',
        rows: [
          ['Alerts', '2'],
          ['Delivered', '1'],
        ],
      },
    ]);

    const fileId = await generateMonthlyReport(server.deps, { organizationId: org.id, year: 2026, month: 10 });
    const pdf = (await createFileStore(server.dataDir).read(fileId))!;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.subarray(-6).toString('latin1')).toContain('%%EOF');
    expect(pdf.length).toBeGreaterThan(1500);
    expect(pdf.toString('latin1')).toMatch(/\/Type \/Page\b/);
    // The first page draws exactly the report's words and figures, in order (the charts follow on
    // the second page: report-charts.test.ts).
    const firstPage = [
      content.title,
      content.subtitle,
      content.period,
      ...content.sections.flatMap((section) => [section.heading, ...section.rows.flat()]),
      'Generated by Lightbar on 2026-11-22.',
    ];
    expect(pdfText(pdf).slice(0, firstPage.length)).toEqual(firstPage);
    expect(pdfText(pdf)[firstPage.length]).toBe('Incidents per day');
  });

  it('the PDF’s document information names the product, the organization and the month', async () => {
    const content = {
      title: 'Lightbar monthly report',
      subtitle: 'Alpha - October 2026',
      period: 'p',
      sections: [{ heading: 'Activity', rows: [['Runs', '7']] as [string, string][] }],
    };
    const pdf = await renderReportPdf(content, new Date(START));
    // pdfkit writes the document info in clear text: the title names the organization and month.
    expect(pdf.toString('latin1')).toContain('(Lightbar monthly report: Alpha - October 2026)');
    expect(pdf.toString('latin1')).toMatch(/\/Title \d+ 0 R/);
  });

  it('making a month again replaces the row and the file (one report per organization and month)', async () => {
    const first = await generateMonthlyReport(server.deps, { organizationId: orgA.id, year: 2026, month: 9 });
    const second = await generateMonthlyReport(server.deps, { organizationId: orgA.id, year: 2026, month: 9 });
    const rows = await server.database.db
      .select()
      .from(monthlyReports)
      .where(and(eq(monthlyReports.organizationId, orgA.id), eq(monthlyReports.year, 2026), eq(monthlyReports.month, 9)));
    expect(rows.map((r) => r.fileId)).toEqual([second]);
    const store = createFileStore(server.dataDir);
    expect(await store.exists(first)).toBe(false);
    expect(await store.exists(second)).toBe(true);
  });

  it('on the 1st (on each organization’s wall clock) the runner makes last month’s report for every organization that existed then, once', async () => {
    const db = server.database.db;
    const zulu = await server.createOrg({ name: 'Zulu Harbor', timezone: 'UTC', createdAt: new Date(Date.UTC(2025, 0, 1)) });
    // 00:03 on 1 December in Chicago: it did not exist in November.
    const late = await server.createOrg({ name: 'Joined in December', createdAt: new Date(Date.UTC(2026, 11, 1, 6, 3)) });
    const novemberOrgs = async () =>
      (
        await db
          .select()
          .from(monthlyReports)
          .where(and(eq(monthlyReports.year, 2026), eq(monthlyReports.month, 11)))
      ).map((r) => r.organizationId);

    // 00:05 UTC on 1 December: November is over in UTC, not yet in Chicago (18:05 on 30 November).
    resetClock(Date.UTC(2026, 11, 1, 0, 5));
    const runner = startJobRunner(server.deps, { engine: server.database.engine });
    expect((await runner.runOnce()).reportsEnqueued).toBeGreaterThan(0);
    expect(await novemberOrgs()).toContain(zulu.id);
    expect(await novemberOrgs()).not.toContain(orgA.id);

    // 00:05 in Chicago.
    server.clock.advance(6 * HOUR_MS);
    expect((await runner.runOnce()).reportsEnqueued).toBeGreaterThan(0);
    const orgIds = await novemberOrgs();
    expect(orgIds).toContain(orgA.id);
    expect(orgIds).not.toContain(late.id);
    expect(new Set(orgIds).size).toBe(orgIds.length);

    // Later ticks find every report in place and enqueue nothing.
    server.clock.advance(HOUR_MS);
    expect((await runner.runOnce()).reportsEnqueued).toBe(0);
    await runner.stop();
  });
});

describe('jobs: scheduled closures', () => {
  it('become active at their start and inactive at their end, bumping updated_at', async () => {
    const clock = resetClock();
    const db = server.database.db;
    const runner = startJobRunner(server.deps, { engine: server.database.engine });
    const [closure] = await db
      .insert(closures)
      .values({
        organizationId: orgA.id,
        closureType: 'manual',
        description: 'Night paving',
        startTime: new Date(START + HOUR_MS),
        endTime: new Date(START + 3 * HOUR_MS),
        updatedAt: new Date(START),
      })
      .returning();
    const row = async () => (await db.select().from(closures).where(eq(closures.id, closure!.id)))[0]!;

    await runner.runOnce();
    expect((await row()).isActive).toBe(false);

    clock.advance(HOUR_MS);
    await runner.runOnce();
    let now = await row();
    expect(now.isActive).toBe(true);
    expect(now.lastStartTime?.getTime()).toBe(START + HOUR_MS);
    expect(now.updatedAt.getTime()).toBe(START + HOUR_MS);

    clock.advance(2 * HOUR_MS);
    await runner.runOnce();
    now = await row();
    expect(now.isActive).toBe(false);
    expect(now.updatedAt.getTime()).toBe(START + 3 * HOUR_MS);
    await runner.stop();
  });

  it('a closure switched off inside its window is not switched on again by the next tick', async () => {
    resetClock();
    const db = server.database.db;
    const [closure] = await db
      .insert(closures)
      .values({
        organizationId: orgA.id,
        closureType: 'manual',
        description: 'Switched off',
        startTime: new Date(START - HOUR_MS),
        endTime: new Date(START + HOUR_MS),
      })
      .returning();
    expect((await applyClosureSchedule(db, server.clock.now())).activated).toContain(closure!.id);
    await db.update(closures).set({ isActive: false }).where(eq(closures.id, closure!.id));
    server.clock.advance(MINUTE_MS);
    expect((await applyClosureSchedule(db, server.clock.now())).activated).not.toContain(closure!.id);
  });
});

describe('jobs: point retention (POINT_RETENTION_DAYS, default 30)', () => {
  it('reads the setting', () => {
    expect(readConfig({}).pointRetentionDays).toBe(30);
    expect(readConfig({ POINT_RETENTION_DAYS: '7' }).pointRetentionDays).toBe(7);
    expect(() => readConfig({ POINT_RETENTION_DAYS: '-1' })).toThrow('POINT_RETENTION_DAYS must be a positive number of days, got "-1"');
  });

  it('deletes only the points older than the period, in batches', async () => {
    resetClock();
    const db = server.database.db;
    const thingId = await thingOf(orgA.id, 'RET-1', 'police', new Date(START));
    const ages = [40, 35, 31, 30.5, 29, 1, 0];
    await db.insert(points).values(ages.map((days) => ({ thingId, lat: 1, lng: days, timestamp: new Date(START - days * DAY_MS) })));
    const runner = startJobRunner(server.deps, { engine: server.database.engine });
    const summary = await runner.runOnce();
    await runner.stop();
    expect(summary.pointsDeleted).toBeGreaterThanOrEqual(4);
    const left = await db.select().from(points).where(eq(points.thingId, thingId));
    expect(left.map((p) => p.lng).sort((a, b) => a - b)).toEqual([0, 1, 29]);

    // Batches: a small batch size still removes every old point.
    await db
      .insert(points)
      .values([5, 6, 7, 8, 9].map((n) => ({ thingId, lat: 1, lng: 100 + n, timestamp: new Date(START - (40 + n) * DAY_MS) })));
    expect(await deleteOldPoints(db, new Date(START - 30 * DAY_MS), 2)).toBe(5);
    expect((await db.select().from(points).where(eq(points.thingId, thingId))).length).toBe(3);
  });
});

describe('jobs: failures', () => {
  it('a failing export is retried with backoff, then becomes errored with a reason (part2 §8 exports failed)', async () => {
    const clock = resetClock();
    const token = await server.signIn(adminA.email);
    const created = await call(server, 'POST', '/organization/export', token, {
      export_type: 'thing',
      title: 'Doomed',
      export_start_time: null,
      export_end_time: null,
      use_utc: true,
      organization_id: orgA.id,
      thing_uuids: [],
    });
    expect(created.status).toBe(201);
    const exportId = String(created.body.id);
    // A real reason to fail: the files folder cannot be created (a plain file stands in its place).
    const dir = filesDir(server.dataDir);
    const aside = `${dir}.aside`;
    if (fs.existsSync(dir)) fs.renameSync(dir, aside);
    fs.writeFileSync(dir, 'not a folder');
    const runner = startJobRunner(server.deps, { engine: server.database.engine });
    try {
      const job = async () =>
        (await server.database.db.select().from(jobs).where(eq(jobs.kind, 'export'))).find((j) => j.payload.exportId === exportId)!;
      const exp = async () => (await server.database.db.select().from(exports).where(eq(exports.id, exportId)))[0]!;

      await runner.runOnce();
      let row = await job();
      expect(row).toMatchObject({ status: 'queued', attempts: 1 });
      expect(row.error).toBeTruthy();
      expect(row.runAt.getTime()).toBe(clock.ms + JOB_BACKOFF_MS);
      expect((await exp()).status).toBe('in_progress');

      // Not due before its backoff has passed.
      clock.advance(JOB_BACKOFF_MS - 1);
      await runner.runOnce();
      expect((await job()).attempts).toBe(1);
      clock.advance(1);
      await runner.runOnce();
      row = await job();
      expect(row.attempts).toBe(2);
      expect(row.runAt.getTime()).toBe(clock.ms + 2 * JOB_BACKOFF_MS);

      clock.advance(2 * JOB_BACKOFF_MS);
      await runner.runOnce();
      row = await job();
      expect(row).toMatchObject({ status: 'failed', attempts: JOB_MAX_ATTEMPTS });
      const errored = await exp();
      expect(errored.status).toBe('errored');
      expect(errored.error).toBe('The file could not be written. Please try again or contact support.');

      const listed = await call(server, 'GET', `/organization/export?org_ids[]=${orgA.id}`, await server.signIn(adminA.email));
      const wire = exportWireSchema.parse((listed.json as { id: string }[]).find((e) => e.id === exportId));
      expect(fromExportWire(wire).tab).toBe('error');
      expect(errorText('exports', { status: 200 }).text).toBe('The requested exports have failed and are no longer In-Progress');
    } finally {
      await runner.stop();
      fs.rmSync(dir, { force: true });
      if (fs.existsSync(aside)) fs.renameSync(aside, dir);
    }
  });

  it('a job whose payload is unusable fails at once without retries', async () => {
    resetClock();
    const db = server.database.db;
    const id = await enqueueJob(db, 'monthly_report', { organizationId: 'nope' }, server.clock.now());
    const runner = startJobRunner(server.deps, { engine: server.database.engine });
    await runner.runOnce();
    await runner.stop();
    const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
    expect(row).toMatchObject({ status: 'failed', attempts: 1, error: 'The report job names no organization and month' });
  });

  it('two runners working the same queue run every job exactly once', async () => {
    resetClock();
    const db = server.database.db;
    const orgs = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => server.createOrg({ name: `Queue ${n}` })));
    const ids: string[] = [];
    for (const org of orgs)
      ids.push(await enqueueJob(db, 'monthly_report', { organizationId: org.id, year: 2026, month: 8 }, server.clock.now()));
    const ours = new Set(orgs.map((org) => org.id));
    let calls = 0;
    const counting = {
      run: async (deps: typeof server.deps, payload: Record<string, unknown>) => {
        if (ours.has(String(payload.organizationId))) calls += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
        await generateMonthlyReport(deps, payload as { organizationId: string; year: number; month: number });
      },
    };
    const one = startJobRunner(server.deps, { engine: server.database.engine, handlers: { monthly_report: counting } });
    const two = startJobRunner(server.deps, { engine: server.database.engine, handlers: { monthly_report: counting } });
    await Promise.all([one.runOnce(), two.runOnce()]);
    await Promise.all([one.stop(), two.stop()]);
    const done = await db.select().from(jobs).where(eq(jobs.kind, 'monthly_report'));
    expect(done.filter((j) => ids.includes(j.id)).every((j) => j.status === 'done' && j.attempts === 1)).toBe(true);
    expect(calls).toBe(ids.length);
  });
});
