import PDFDocument from 'pdfkit';
import { and, asc, eq, gte, isNull, lt, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { HAZARD_SEVERITIES, MONTHLY_REPORT_MIN_YEAR, PRODUCT_NAME } from '../../src/domain/constants';
import { zonedMidnight } from '../../src/domain/export';
import type { Db } from '../db/connection';
import { closures, hazards, locations, monthlyReports, organizations, r2rAlerts, runs, things, thingTypes } from '../db/schema';
import { createFileStore } from '../files';
import { JobError, type JobDeps, type JobHandler } from './runner';

/**
 * Monthly PDF reports (part 2 §2 "Monthly Reports", §3 Monthly report). The month runs from 00:00 on its 1st to 00:00 on the next month's 1st in the
 * organization's time zone. One report per organization and month: making it again replaces the
 * file (upsert on organization, year, month).
 */
const MONTHS_IN_YEAR = 12;

export const monthlyReportPayloadSchema = z.object({
  organizationId: z.uuid(),
  year: z.number().int().min(MONTHLY_REPORT_MIN_YEAR),
  month: z.number().int().min(1).max(MONTHS_IN_YEAR),
});
export type MonthlyReportPayload = z.infer<typeof monthlyReportPayloadSchema>;

/** The calendar month before `now`'s (UTC): the one the scheduler reports on the 1st. */
export function previousMonth(now: Date): { year: number; month: number } {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth(); // 0-based this month = 1-based last month
  return month === 0 ? { year: year - 1, month: MONTHS_IN_YEAR } : { year, month };
}

/** The calendar month before the one `now` falls in, on the wall clock of `timeZone`. */
export function previousMonthIn(now: Date, timeZone: string): { year: number; month: number } {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: safeZone(timeZone), year: 'numeric', month: 'numeric' }).formatToParts(now);
  const year = Number(parts.find((p) => p.type === 'year')?.value);
  const month = Number(parts.find((p) => p.type === 'month')?.value);
  return month === 1 ? { year: year - 1, month: MONTHS_IN_YEAR } : { year, month: month - 1 };
}

/** The zone when Intl knows it, else UTC (an organization's time zone is free text). */
export function safeZone(zone: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

/** From 00:00 of the month's 1st to 00:00 of the next month's 1st, in `timeZone`. */
export function monthRange(year: number, month: number, timeZone: string): { start: Date; end: Date } {
  const next = month === MONTHS_IN_YEAR ? { year: year + 1, month: 1 } : { year, month: month + 1 };
  return {
    start: new Date(zonedMidnight({ year, month, day: 1 }, timeZone)),
    end: new Date(zonedMidnight({ ...next, day: 1 }, timeZone)),
  };
}

export interface MonthlyFigures {
  organizationName: string;
  timeZone: string;
  year: number;
  month: number;
  assetsByType: { type: string; count: number }[];
  incidentsOpened: number;
  closuresActive: number;
  runs: number;
  runSeconds: number;
  hazardsBySeverity: Record<(typeof HAZARD_SEVERITIES)[number], number>;
  r2rAlerts: number;
  r2rDelivered: number;
}

/** The month's figures of one organization; null when it does not exist. */
export async function monthlyFigures(db: Db, payload: MonthlyReportPayload, now: Date): Promise<MonthlyFigures | null> {
  const [org] = await db
    .select({ name: organizations.name, timeZone: organizations.timezone })
    .from(organizations)
    .where(eq(organizations.id, payload.organizationId))
    .limit(1);
  if (!org) return null;
  const timeZone = safeZone(org.timeZone);
  const { start, end } = monthRange(payload.year, payload.month, timeZone);
  const orgId = payload.organizationId;
  const count = sql<number>`count(*)::int`;

  // Assets the organization held at some time in the month.
  const assetsByType = await db
    .select({ type: sql<string>`coalesce(${thingTypes.displayName}, ${thingTypes.name})`, count })
    .from(things)
    .innerJoin(thingTypes, eq(thingTypes.id, things.thingTypeId))
    .where(and(eq(things.organizationId, orgId), lt(things.createdAt, end), or(isNull(things.deletedAt), gte(things.deletedAt, start))))
    .groupBy(thingTypes.name, thingTypes.displayName)
    .orderBy(asc(thingTypes.name));

  const [incidents] = await db
    .select({ count })
    .from(locations)
    .where(and(eq(locations.organizationId, orgId), isNull(locations.deletedAt), gte(locations.startTime, start), lt(locations.startTime, end)));

  // Active at some time in the month: started (or was created active) before its end, not ended before its start.
  const began = sql`coalesce(${closures.lastStartTime}, case when ${closures.isActive} then ${closures.createdAt} end)`;
  const [closuresActive] = await db
    .select({ count })
    .from(closures)
    .where(
      and(
        eq(closures.organizationId, orgId),
        or(isNull(closures.deletedAt), gte(closures.deletedAt, start)),
        sql`${began} < ${end}`,
        or(isNull(closures.endTime), gte(closures.endTime, start)),
      ),
    );

  const [runTotals] = await db
    .select({
      count,
      seconds: sql<number>`coalesce(sum(extract(epoch from (coalesce(${runs.runEnd}, ${now}::timestamptz) - ${runs.runStart}))), 0)::float8`,
    })
    .from(runs)
    .innerJoin(things, eq(things.id, runs.thingId))
    .where(and(eq(things.organizationId, orgId), gte(runs.runStart, start), lt(runs.runStart, end)));

  const hazardRows = await db
    .select({ severity: hazards.severity, count })
    .from(hazards)
    .where(and(eq(hazards.organizationId, orgId), gte(hazards.reportedAt, start), lt(hazards.reportedAt, end)))
    .groupBy(hazards.severity);
  const hazardsBySeverity = { low: 0, medium: 0, high: 0 };
  for (const row of hazardRows) hazardsBySeverity[row.severity] = Number(row.count);

  const [r2r] = await db
    .select({ count, delivered: sql<number>`count(*) filter (where ${r2rAlerts.delivered})::int` })
    .from(r2rAlerts)
    .where(and(eq(r2rAlerts.organizationId, orgId), eq(r2rAlerts.isTest, false), gte(r2rAlerts.alertTime, start), lt(r2rAlerts.alertTime, end)));

  return {
    organizationName: org.name,
    timeZone,
    year: payload.year,
    month: payload.month,
    assetsByType: assetsByType.map((row) => ({ type: row.type, count: Number(row.count) })),
    incidentsOpened: Number(incidents?.count ?? 0),
    closuresActive: Number(closuresActive?.count ?? 0),
    runs: Number(runTotals?.count ?? 0),
    runSeconds: Math.max(0, Math.round(Number(runTotals?.seconds ?? 0))),
    hazardsBySeverity,
    r2rAlerts: Number(r2r?.count ?? 0),
    r2rDelivered: Number(r2r?.delivered ?? 0),
  };
}

export interface ReportContent {
  title: string;
  subtitle: string;
  period: string;
  sections: { heading: string; rows: [label: string, value: string][] }[];
}

export function monthName(year: number, month: number): string {
  return new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(year, month - 1, 1));
}

/** 45 296 s → '12 h 34 min'. */
export function formatDuration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

const SEVERITY_LABELS = { low: 'Low', medium: 'Medium', high: 'High' } as const;

/** The report's words and figures; the PDF draws exactly these. */
export function reportContent(figures: MonthlyFigures): ReportContent {
  const totalAssets = figures.assetsByType.reduce((sum, row) => sum + row.count, 0);
  const totalHazards = HAZARD_SEVERITIES.reduce((sum, severity) => sum + figures.hazardsBySeverity[severity], 0);
  const lastDay = new Date(Date.UTC(figures.year, figures.month, 0)).getUTCDate();
  const mm = String(figures.month).padStart(2, '0');
  return {
    title: `${PRODUCT_NAME} monthly report`,
    subtitle: `${figures.organizationName} — ${monthName(figures.year, figures.month)}`,
    period: `${figures.year}-${mm}-01 to ${figures.year}-${mm}-${lastDay} (${figures.timeZone})`,
    sections: [
      {
        heading: 'Assets by type',
        rows: [...figures.assetsByType.map((row): [string, string] => [row.type, String(row.count)]), ['Total assets', String(totalAssets)]],
      },
      {
        heading: 'Activity',
        rows: [
          ['Incidents opened', String(figures.incidentsOpened)],
          ['Closures active', String(figures.closuresActive)],
          ['Runs', String(figures.runs)],
          ['Total run time', formatDuration(figures.runSeconds)],
        ],
      },
      {
        heading: 'Hazards',
        rows: [
          ...HAZARD_SEVERITIES.map((severity): [string, string] => [SEVERITY_LABELS[severity], String(figures.hazardsBySeverity[severity])]),
          ['Total hazards', String(totalHazards)],
        ],
      },
      {
        heading: 'R2R alerts',
        rows: [
          ['Alerts', String(figures.r2rAlerts)],
          ['Delivered', String(figures.r2rDelivered)],
        ],
      },
    ],
  };
}

const PAGE_MARGIN = 54;
const VALUE_WIDTH = 140;

/** Draws the content as a one-page Letter PDF. */
export function renderReportPdf(content: ReportContent, createdAt: Date): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: PAGE_MARGIN,
    info: { Title: `${content.title}: ${content.subtitle}`, Author: PRODUCT_NAME, Creator: PRODUCT_NAME, CreationDate: createdAt, ModDate: createdAt },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = PAGE_MARGIN;
  const width = doc.page.width - 2 * PAGE_MARGIN;

  doc.font('Helvetica-Bold').fontSize(20).text(content.title, left, PAGE_MARGIN);
  doc.font('Helvetica').fontSize(13).text(content.subtitle);
  doc.fontSize(10).fillColor('#555555').text(content.period).fillColor('#000000');
  for (const section of content.sections) {
    doc.moveDown(1.2);
    doc.font('Helvetica-Bold').fontSize(13).text(section.heading, left);
    const ruleY = doc.y + 2;
    doc.moveTo(left, ruleY).lineTo(left + width, ruleY).lineWidth(0.5).strokeColor('#999999').stroke();
    doc.moveDown(0.4);
    doc.font('Helvetica').fontSize(11);
    for (const [label, value] of section.rows) {
      const y = doc.y;
      doc.text(label, left, y, { width: width - VALUE_WIDTH });
      doc.text(value, left + width - VALUE_WIDTH, y, { width: VALUE_WIDTH, align: 'right' });
      doc.moveDown(0.2);
    }
  }
  doc.moveDown(2);
  doc.fontSize(8).fillColor('#777777').text(`Generated by ${PRODUCT_NAME} on ${createdAt.toISOString().slice(0, 10)}.`, left);
  doc.end();
  return done;
}

/** Makes (or remakes) one organization's report for a month; answers the new file id. */
export async function generateMonthlyReport(deps: JobDeps, payload: MonthlyReportPayload): Promise<string> {
  const { db } = deps;
  const now = deps.now();
  const figures = await monthlyFigures(db, payload, now);
  if (!figures) throw new JobError('Organization not found');
  const pdf = await renderReportPdf(reportContent(figures), now);
  const store = createFileStore(deps.config.dataDir);
  const fileId = store.newId('pdf');
  await store.write(fileId, pdf);
  const key = and(
    eq(monthlyReports.organizationId, payload.organizationId),
    eq(monthlyReports.year, payload.year),
    eq(monthlyReports.month, payload.month),
  );
  const [previous] = await db.select({ fileId: monthlyReports.fileId }).from(monthlyReports).where(key).limit(1);
  try {
    await db
      .insert(monthlyReports)
      .values({ organizationId: payload.organizationId, year: payload.year, month: payload.month, fileId, createdAt: now })
      .onConflictDoUpdate({
        target: [monthlyReports.organizationId, monthlyReports.year, monthlyReports.month],
        set: { fileId, createdAt: now },
      });
  } catch (error) {
    await store.remove(fileId);
    throw error;
  }
  if (previous && previous.fileId !== fileId) await store.remove(previous.fileId);
  return fileId;
}

export const monthlyReportJob: JobHandler = {
  async run(deps, payload) {
    const parsed = monthlyReportPayloadSchema.safeParse(payload);
    if (!parsed.success) throw new JobError('The report job names no organization and month');
    await generateMonthlyReport(deps, parsed.data);
  },
};
