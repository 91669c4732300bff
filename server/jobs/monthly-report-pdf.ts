import PDFDocument from 'pdfkit';
import { and, asc, eq, gte, isNull, lt, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { HAZARD_SEVERITIES, MONTHLY_REPORT_MIN_YEAR, PRODUCT_NAME } from '../../src/domain/constants';
import { zonedMidnight } from '../../src/domain/export';
import { monthYearLabel } from '../../src/domain/time';
import type { Db } from '../db/connection';
import {
  closures,
  hazards,
  locations,
  locationThings,
  monthlyReports,
  organizations,
  r2rAlerts,
  runs,
  things,
  thingTypes,
} from '../db/schema';
import { createFileStore } from '../files';
import { JobError } from './job-error';
import type { JobDeps, JobHandler } from './job-handler';

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
  /** Incidents opened on each day of the month (index 0 = the 1st), on the organization's wall clock. */
  incidentsPerDay: number[];
  /** The organization's assets by what they did in the month (ASSET_ACTIVITY_LABELS). */
  assetsByStatus: Record<AssetActivity, number>;
  /** Assets joining an incident, by minutes from the incident's start (TIME_TO_SCENE_BUCKETS). */
  timeToScene: number[];
  /** The streets with the most incidents, most first (at most BUSIEST_AREAS_MAX). */
  busiestAreas: { name: string; count: number }[];
}

/**
 * part 2 §2 report charts, "assets by status" over a month: what each asset held in the month did
 * (a status is a moment's; a month's report counts activity): joined an incident, drove (a run) but
 * joined none, stayed idle in service, or was out of service.
 */
export const ASSET_ACTIVITIES = ['incident', 'ran', 'idle', 'out_of_service'] as const;
export type AssetActivity = (typeof ASSET_ACTIVITIES)[number];
export const ASSET_ACTIVITY_LABELS: Readonly<Record<AssetActivity, string>> = {
  incident: 'On incidents',
  ran: 'Driving only',
  idle: 'Idle',
  out_of_service: 'Out of service',
};

/**
 * Time to scene: from an incident's start to an asset joining it (location_things.start_time), in
 * minutes, bucketed at these upper bounds (the last bucket is open).
 */
export const TIME_TO_SCENE_BUCKETS = [5, 10, 15, 20, 30] as const;
export const TIME_TO_SCENE_LABELS = ['0-5', '5-10', '10-15', '15-20', '20-30', '30+'] as const;
export const BUSIEST_AREAS_MAX = 5;
const UNKNOWN_STREET = 'Unknown street';

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
  const heldInMonth = and(
    eq(things.organizationId, orgId),
    lt(things.createdAt, end),
    or(isNull(things.deletedAt), gte(things.deletedAt, start)),
  );
  // Incidents that started in the month.
  const incidentsInMonth = and(
    eq(locations.organizationId, orgId),
    isNull(locations.deletedAt),
    gte(locations.startTime, start),
    lt(locations.startTime, end),
  );
  const assetsByType = await db
    .select({ type: sql<string>`coalesce(${thingTypes.displayName}, ${thingTypes.name})`, count })
    .from(things)
    .innerJoin(thingTypes, eq(thingTypes.id, things.thingTypeId))
    .where(heldInMonth)
    .groupBy(thingTypes.name, thingTypes.displayName)
    .orderBy(asc(thingTypes.name));

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
    .where(
      and(eq(r2rAlerts.organizationId, orgId), eq(r2rAlerts.isTest, false), gte(r2rAlerts.alertTime, start), lt(r2rAlerts.alertTime, end)),
    );

  const dayOf = sql<number>`extract(day from (${locations.startTime} at time zone ${timeZone}))::int`;
  const perDay = await db
    .select({ day: dayOf, count })
    .from(locations)
    .where(incidentsInMonth)
    // By position: the expression holds a bound parameter (the zone), which Postgres would not match twice.
    .groupBy(sql`1`);
  const daysInMonth = new Date(Date.UTC(payload.year, payload.month, 0)).getUTCDate();
  const incidentsPerDay = Array.from({ length: daysInMonth }, () => 0);
  for (const row of perDay) if (row.day >= 1 && row.day <= daysInMonth) incidentsPerDay[row.day - 1] = Number(row.count);

  // Each asset held in the month, with whether it joined an incident or drove in it.
  const held = await db.select({ id: things.id, inService: things.inService }).from(things).where(heldInMonth);
  const joinedRows = await db
    .selectDistinct({ id: locationThings.thingId })
    .from(locationThings)
    .innerJoin(things, eq(things.id, locationThings.thingId))
    .where(and(eq(things.organizationId, orgId), gte(locationThings.startTime, start), lt(locationThings.startTime, end)));
  const droveRows = await db
    .selectDistinct({ id: runs.thingId })
    .from(runs)
    .innerJoin(things, eq(things.id, runs.thingId))
    .where(and(eq(things.organizationId, orgId), gte(runs.runStart, start), lt(runs.runStart, end)));
  const joined = new Set(joinedRows.map((row) => row.id));
  const drove = new Set(droveRows.map((row) => row.id));
  const assetsByStatus: Record<AssetActivity, number> = { incident: 0, ran: 0, idle: 0, out_of_service: 0 };
  for (const asset of held) {
    const activity: AssetActivity = joined.has(asset.id)
      ? 'incident'
      : drove.has(asset.id)
        ? 'ran'
        : asset.inService
          ? 'idle'
          : 'out_of_service';
    assetsByStatus[activity] += 1;
  }

  const minutes = sql<number>`extract(epoch from (${locationThings.startTime} - ${locations.startTime})) / 60.0`;
  const arrivals = await db
    .select({ minutes })
    .from(locationThings)
    .innerJoin(locations, eq(locations.id, locationThings.locationId))
    .where(
      and(eq(locations.organizationId, orgId), isNull(locations.deletedAt), gte(locations.startTime, start), lt(locations.startTime, end)),
    );
  const timeToScene = TIME_TO_SCENE_LABELS.map(() => 0);
  for (const arrival of arrivals) {
    const value = Math.max(0, Number(arrival.minutes));
    const bucket = TIME_TO_SCENE_BUCKETS.findIndex((limit) => value < limit);
    timeToScene[bucket === -1 ? TIME_TO_SCENE_BUCKETS.length : bucket]! += 1;
  }

  const street = sql<string>`coalesce(nullif(trim(${locations.street}), ''), ${UNKNOWN_STREET})`;
  const busiest = await db
    .select({ name: street, count })
    .from(locations)
    .where(
      and(eq(locations.organizationId, orgId), isNull(locations.deletedAt), gte(locations.startTime, start), lt(locations.startTime, end)),
    )
    .groupBy(sql`1`)
    .orderBy(sql`2 desc`, sql`1`)
    .limit(BUSIEST_AREAS_MAX);

  return {
    incidentsPerDay,
    assetsByStatus,
    timeToScene,
    busiestAreas: busiest.map((row) => ({ name: row.name, count: Number(row.count) })),
    organizationName: org.name,
    timeZone,
    year: payload.year,
    month: payload.month,
    assetsByType: assetsByType.map((row) => ({ type: row.type, count: Number(row.count) })),
    incidentsOpened: incidentsPerDay.reduce((sum, n) => sum + n, 0),
    closuresActive: Number(closuresActive?.count ?? 0),
    runs: Number(runTotals?.count ?? 0),
    runSeconds: Math.max(0, Math.round(Number(runTotals?.seconds ?? 0))),
    hazardsBySeverity,
    r2rAlerts: Number(r2r?.count ?? 0),
    r2rDelivered: Number(r2r?.delivered ?? 0),
  };
}

/** A bar chart of the report (part 2 §2 charts): one bar per label; `vertical` bars stand on an axis, the others lie. */
export interface ReportChart {
  title: string;
  labels: string[];
  values: number[];
  vertical: boolean;
  /** Under the axis: what the labels count. */
  caption: string;
}

export interface ReportContent {
  title: string;
  subtitle: string;
  period: string;
  sections: { heading: string; rows: [label: string, value: string][] }[];
  /** Drawn on the second page; none: a one-page report. */
  charts?: ReportChart[];
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
    subtitle: `${figures.organizationName} — ${monthYearLabel(figures.year, figures.month)}`,
    period: `${figures.year}-${mm}-01 to ${figures.year}-${mm}-${lastDay} (${figures.timeZone})`,
    sections: [
      {
        heading: 'Assets by type',
        rows: [
          ...figures.assetsByType.map((row): [string, string] => [row.type, String(row.count)]),
          ['Total assets', String(totalAssets)],
        ],
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
          ...HAZARD_SEVERITIES.map((severity): [string, string] => [
            SEVERITY_LABELS[severity],
            String(figures.hazardsBySeverity[severity]),
          ]),
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
    charts: [
      {
        title: 'Incidents per day',
        labels: figures.incidentsPerDay.map((_, index) => String(index + 1)),
        values: figures.incidentsPerDay,
        vertical: true,
        caption: 'Day of the month',
      },
      {
        title: 'Assets by status',
        labels: ASSET_ACTIVITIES.map((activity) => ASSET_ACTIVITY_LABELS[activity]),
        values: ASSET_ACTIVITIES.map((activity) => figures.assetsByStatus[activity]),
        vertical: false,
        caption: 'Assets',
      },
      {
        title: 'Time to scene',
        labels: [...TIME_TO_SCENE_LABELS],
        values: figures.timeToScene,
        vertical: true,
        caption: 'Minutes from the incident start to an asset joining it',
      },
      {
        title: 'Busiest areas',
        labels: figures.busiestAreas.length ? figures.busiestAreas.map((area) => area.name) : ['No incidents'],
        values: figures.busiestAreas.length ? figures.busiestAreas.map((area) => area.count) : [0],
        vertical: false,
        caption: 'Incidents by street',
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
    info: {
      Title: `${content.title}: ${content.subtitle}`,
      Author: PRODUCT_NAME,
      Creator: PRODUCT_NAME,
      CreationDate: createdAt,
      ModDate: createdAt,
    },
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
    doc
      .moveTo(left, ruleY)
      .lineTo(left + width, ruleY)
      .lineWidth(0.5)
      .strokeColor('#999999')
      .stroke();
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
  doc
    .fontSize(8)
    .fillColor('#777777')
    .text(`Generated by ${PRODUCT_NAME} on ${createdAt.toISOString().slice(0, 10)}.`, left);
  if (content.charts?.length) {
    doc.addPage();
    const chartHeight = (doc.page.height - 2 * PAGE_MARGIN) / content.charts.length;
    content.charts.forEach((chart, index) =>
      drawChart(doc, chart, { x: left, y: PAGE_MARGIN + index * chartHeight, width, height: chartHeight }),
    );
  }
  doc.end();
  return done;
}

/** The charts' ink (a PDF is printed: fixed colours, not the app's theme). */
export const CHART_COLORS = { bar: '#1565c0', axis: '#555555', text: '#17202e', grid: '#d5dbe4' } as const;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A round step for the value axis: 1, 2 or 5 times a power of ten, so about four grid lines fit. */
function axisStep(max: number): number {
  if (max <= 4) return 1;
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((f) => f * power).find((s) => s >= rough);
  return step ?? 10 * power;
}

/** One bar chart drawn with pdfkit's vector paths (rectangles and lines), its title above, its caption below. */
function drawChart(doc: PDFKit.PDFDocument, chart: ReportChart, box: Box): void {
  const titleHeight = 20;
  const captionHeight = 14;
  doc.font('Helvetica-Bold').fontSize(12).fillColor(CHART_COLORS.text).text(chart.title, box.x, box.y, { lineBreak: false });
  const max = Math.max(0, ...chart.values);
  const step = axisStep(max);
  const top = Math.max(step, Math.ceil(max / step) * step);
  doc.font('Helvetica').fontSize(7);
  if (chart.vertical) {
    const axisLabelWidth = 24;
    const plot = {
      x: box.x + axisLabelWidth,
      y: box.y + titleHeight,
      width: box.width - axisLabelWidth,
      height: box.height - titleHeight - 2 * captionHeight - 12,
    };
    const base = plot.y + plot.height;
    for (let value = 0; value <= top; value += step) {
      const y = base - (value / top) * plot.height;
      doc
        .moveTo(plot.x, y)
        .lineTo(plot.x + plot.width, y)
        .lineWidth(0.4)
        .strokeColor(CHART_COLORS.grid)
        .stroke();
      doc.fillColor(CHART_COLORS.axis).text(String(value), box.x, y - 3, { width: axisLabelWidth - 4, align: 'right', lineBreak: false });
    }
    const slot = plot.width / chart.values.length;
    const every = chart.values.length > 12 ? 2 : 1;
    chart.values.forEach((value, index) => {
      const barHeight = (value / top) * plot.height;
      const x = plot.x + index * slot + slot * 0.15;
      if (barHeight > 0) doc.rect(x, base - barHeight, slot * 0.7, barHeight).fill(CHART_COLORS.bar);
      if (index % every === 0) {
        doc.fillColor(CHART_COLORS.axis).text(chart.labels[index] ?? '', plot.x + index * slot, base + 3, {
          width: slot * every,
          align: every === 1 ? 'center' : 'left',
          lineBreak: false,
        });
      }
    });
    doc
      .moveTo(plot.x, base)
      .lineTo(plot.x + plot.width, base)
      .lineWidth(0.8)
      .strokeColor(CHART_COLORS.axis)
      .stroke();
    doc
      .fontSize(8)
      .fillColor(CHART_COLORS.axis)
      .text(chart.caption, plot.x, base + 14, { width: plot.width, align: 'center', lineBreak: false });
  } else {
    const labelWidth = Math.min(170, box.width * 0.35);
    const valueWidth = 30;
    const plot = {
      x: box.x + labelWidth,
      y: box.y + titleHeight,
      width: box.width - labelWidth - valueWidth,
      height: box.height - titleHeight - captionHeight - 10,
    };
    const slot = Math.min(22, plot.height / chart.values.length);
    doc.fontSize(9);
    chart.values.forEach((value, index) => {
      const y = plot.y + index * slot;
      const barWidth = (value / top) * plot.width;
      doc
        .fillColor(CHART_COLORS.text)
        .text(chart.labels[index] ?? '', box.x, y + slot * 0.2, { width: labelWidth - 8, ellipsis: true, lineBreak: false, height: slot });
      if (barWidth > 0) doc.rect(plot.x, y + slot * 0.15, barWidth, slot * 0.7).fill(CHART_COLORS.bar);
      doc.fillColor(CHART_COLORS.text).text(String(value), plot.x + barWidth + 4, y + slot * 0.2, { lineBreak: false });
    });
    const bottom = plot.y + chart.values.length * slot;
    doc.moveTo(plot.x, plot.y).lineTo(plot.x, bottom).lineWidth(0.8).strokeColor(CHART_COLORS.axis).stroke();
    doc
      .fontSize(8)
      .fillColor(CHART_COLORS.axis)
      .text(chart.caption, plot.x, bottom + 4, { width: plot.width, align: 'left', lineBreak: false });
  }
  doc.fillColor('#000000');
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
