/**
 * CSV exports (part 2 §2 Data, §3 Export, §4 Export wizard and exports, §7 /organization/export).
 *
 * Decisions:
 * - The spec's "thing/asset" export type is the wire value 'thing', shown as 'Asset'.
 * - "Default title is 'Type Export date'" reads as `${type label} Export ${day}` with the day of
 *   the default range (the previous day) as YYYY-MM-DD, e.g. 'Incident Export 2026-11-21'.
 * - "Export default range is the previous day": from 00:00 of yesterday to 00:00 of today in the
 *   given time zone (UTC when none is given), the end exclusive; use_utc defaults to true exactly
 *   when that zone is UTC, so the flag and the range agree.
 */
import { z } from 'zod';
import { DAY_MS } from './constants';
import { TOOLTIP } from './labels';
import { areaCrud, type PermissionList } from './permissions';
import { parseTime, toIso } from './time';

export const EXPORT_TYPES = ['incident', 'point', 'thing', 'closure'] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

export const EXPORT_TYPE_LABELS: Readonly<Record<ExportType, string>> = {
  incident: 'Incident',
  point: 'Point',
  thing: 'Asset',
  closure: 'Closure',
};

export const EXPORT_STATUSES = ['in_progress', 'requested', 'completed', 'errored'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** The list's tabs (part 2 §2): Completed, In-Progress, Error. */
export const EXPORT_TABS = [
  { key: 'completed', label: 'Completed' },
  { key: 'in_progress', label: 'In-Progress' },
  { key: 'error', label: 'Error' },
] as const;
export type ExportTab = (typeof EXPORT_TABS)[number]['key'];

/** part 2 §3: "in_progress counts as requested": both go to the In-Progress tab. */
export function exportStatusGroup(status: ExportStatus): ExportTab {
  switch (status) {
    case 'completed':
      return 'completed';
    case 'in_progress':
    case 'requested':
      return 'in_progress';
    case 'errored':
      return 'error';
  }
}

/** The closure kinds a closure export can include besides assets' closures (part 2 §5). */
export const CLOSURE_EXPORT_INCLUDES = ['manual', 'feed'] as const;
export type ClosureExportInclude = (typeof CLOSURE_EXPORT_INCLUDES)[number];

export const EXPORT_FILE_EXTENSION = '.csv';

/**
 * Exports running (requested or in progress) at once, per user and per organization. The spec sets
 * no limit; an export is server work (a month of points is hundreds of thousands of rows), so one
 * user, or one organization's users together, cannot fill the job queue (OWASP API4:2023
 * "Unrestricted Resource Consumption"). The next request is refused until one has finished.
 */
export const EXPORTS_RUNNING_PER_USER = 2;
export const EXPORTS_RUNNING_PER_ORGANIZATION = 5;

/**
 * The most data rows one export file holds. The spec bounds the range (31 days) and the server the
 * assets (1000), but 1000 assets × 31 days of points could be hundreds of millions of rows: past
 * this many the export stops and is errored with EXPORT_TOO_LARGE_REASON (about half a minute of
 * server time and 100 MB of CSV at the measured ~35,000 rows a second).
 */
export const EXPORT_MAX_ROWS = 1_000_000;
export const EXPORT_TOO_LARGE_REASON = `The export has more than ${EXPORT_MAX_ROWS.toLocaleString('en-US')} rows. Please choose fewer assets or a shorter range.`;

export const exportWireSchema = z.object({
  id: z.string(),
  organization_id: z.string(),
  /** The creator's user id. */
  requested_by: z.string(),
  /** Whether the user who asked for it was deleted since (designed: their exports are then the administrators' to delete). */
  requested_by_deleted: z.boolean().nullish(),
  export_type: z.enum(EXPORT_TYPES),
  title: z.string(),
  export_start_time: z.string().nullish(),
  export_end_time: z.string().nullish(),
  requested_at: z.string(),
  completed_at: z.string().nullish(),
  file_id: z
    .string()
    .refine((id) => id.toLowerCase().endsWith(EXPORT_FILE_EXTENSION), { message: 'Must be a .csv file' })
    .nullish(),
  status: z.enum(EXPORT_STATUSES),
  /** Our server: an errored export's reason, and a running one's progress (part 2 §4). */
  error: z.string().nullish(),
  use_utc: z.boolean().nullish(),
  rows_written: z.number().int().min(0).nullish(),
  rows_total: z.number().int().min(0).nullish(),
  started_at: z.string().nullish(),
});
export type ExportWire = z.infer<typeof exportWireSchema>;

export interface DataExport {
  id: string;
  orgId: string;
  requestedBy: string;
  /** The requester was deleted: the organization's administrators may delete the export. */
  requesterDeleted: boolean;
  exportType: ExportType;
  title: string;
  startTime: number | null;
  endTime: number | null;
  requestedAt: number;
  completedAt: number | null;
  fileId: string | null;
  status: ExportStatus;
  tab: ExportTab;
  error: string | null;
  useUtc: boolean;
  rowsWritten: number;
  /** null: not counted yet. */
  rowsTotal: number | null;
  startedAt: number | null;
}

export function fromExportWire(wire: ExportWire): DataExport {
  return {
    id: wire.id,
    orgId: wire.organization_id,
    requestedBy: wire.requested_by,
    requesterDeleted: wire.requested_by_deleted ?? false,
    exportType: wire.export_type,
    title: wire.title,
    startTime: parseTime(wire.export_start_time),
    endTime: parseTime(wire.export_end_time),
    requestedAt: parseTime(wire.requested_at) ?? 0,
    completedAt: parseTime(wire.completed_at),
    fileId: wire.file_id ?? null,
    status: wire.status,
    tab: exportStatusGroup(wire.status),
    error: wire.error ?? null,
    useUtc: wire.use_utc ?? false,
    rowsWritten: wire.rows_written ?? 0,
    rowsTotal: wire.rows_total ?? null,
    startedAt: parseTime(wire.started_at),
  };
}

// ── progress (part 2 §4 In-Progress) ─────────────────────────────────────────

export interface ExportProgress {
  /** 0..1; null while the export waits or its rows are not counted yet. */
  fraction: number | null;
  /** Estimated ms left at the rate so far; null until there is a rate. */
  remainingMs: number | null;
}

/**
 * How far a running export is: rows written of the counted total, and the time left at the rate
 * seen since it started (rows written over time elapsed). A waiting export has neither.
 */
export function exportProgress(exp: Pick<DataExport, 'status' | 'rowsWritten' | 'rowsTotal' | 'startedAt'>, now: number): ExportProgress {
  if (exp.status !== 'in_progress' || exp.rowsTotal === null) return { fraction: null, remainingMs: null };
  if (exp.rowsTotal === 0) return { fraction: 1, remainingMs: null };
  const fraction = Math.min(1, exp.rowsWritten / exp.rowsTotal);
  const elapsed = exp.startedAt === null ? 0 : now - exp.startedAt;
  if (exp.rowsWritten === 0 || elapsed <= 0) return { fraction, remainingMs: null };
  const remainingMs = ((exp.rowsTotal - exp.rowsWritten) * elapsed) / exp.rowsWritten;
  return { fraction, remainingMs: Math.max(0, remainingMs) };
}

/** How often the exports list asks again while an export is in progress (part 2 §4: it moves to Completed by itself). */
export const EXPORTS_POLL_MS = 2_000;

/** Newest request first. */
export function sortExports(exports: readonly DataExport[]): DataExport[] {
  return [...exports].sort((a, b) => b.requestedAt - a.requestedAt);
}

export function exportsInTab(exports: readonly DataExport[], tab: ExportTab): DataExport[] {
  return exports.filter((e) => e.tab === tab);
}

// ── delete (part 2 §4, §6) ───────────────────────────────────────────────────

/** 'Only the export creator can delete.' (part 2 §4; labels.ts holds the words). */
export const EXPORT_DELETE_TOOLTIP = TOOLTIP.onlyExportCreator;

/** Who asks to delete: the user, the organization they are signed in to, their permissions. */
export interface ExportViewer {
  userId: string;
  organizationId: string;
  permissions: PermissionList;
}

/**
 * part 2 §4: only the creator deletes an export. Beyond the spec, an export whose requester was
 * deleted would otherwise stay for ever: the administrators of its organization (user:admin
 * delete, signed in to that organization) may delete it. The server enforces the same rule.
 */
export function canDeleteExport(exp: Pick<DataExport, 'requestedBy' | 'requesterDeleted' | 'orgId'>, viewer: ExportViewer): boolean {
  if (exp.requestedBy === viewer.userId) return true;
  return exp.requesterDeleted && exp.orgId === viewer.organizationId && areaCrud(viewer.permissions, 'user:admin').canDelete;
}

/** The delete button's tooltip: null when the user may delete. */
export function exportDeleteTooltip(
  exp: Pick<DataExport, 'requestedBy' | 'requesterDeleted' | 'orgId'>,
  viewer: ExportViewer,
): string | null {
  return canDeleteExport(exp, viewer) ? null : EXPORT_DELETE_TOOLTIP;
}

// ── wizard and request (part 2 §2, §3, §4) ───────────────────────────────────

export const EXPORT_WIZARD_STEPS = ['type', 'form', 'success'] as const;
export type ExportWizardStep = (typeof EXPORT_WIZARD_STEPS)[number];

export interface ExportForm {
  exportType: ExportType;
  title: string;
  /** ms; null for asset exports without a range. */
  startTime: number | null;
  endTime: number | null;
  useUtc: boolean;
  organizationId: string;
  thingUuids: string[];
  /** Incident exports: include incident locations with no asset. */
  includeNoThingIl: boolean;
  /** Closure exports: manual and/or feed closures besides the selected assets' closures. */
  closuresToInclude: ClosureExportInclude[];
}

interface ExportRequestBase {
  title: string;
  export_start_time: string | null;
  export_end_time: string | null;
  use_utc: boolean;
  organization_id: string;
  thing_uuids: string[];
}

/** POST /organization/export body (part 2 §3 "Export request payload"). */
export type ExportRequest =
  | (ExportRequestBase & { export_type: 'incident'; include_no_thing_il: boolean })
  | (ExportRequestBase & { export_type: 'closure'; closures_to_include: ClosureExportInclude[] })
  | (ExportRequestBase & { export_type: 'point' | 'thing' });

export function toExportRequest(form: ExportForm): ExportRequest {
  const base: ExportRequestBase = {
    title: form.title.trim(),
    export_start_time: toIso(form.startTime),
    export_end_time: toIso(form.endTime),
    use_utc: form.useUtc,
    organization_id: form.organizationId,
    thing_uuids: [...form.thingUuids],
  };
  switch (form.exportType) {
    case 'incident':
      return { ...base, export_type: 'incident', include_no_thing_il: form.includeNoThingIl };
    case 'closure':
      return { ...base, export_type: 'closure', closures_to_include: [...form.closuresToInclude] };
    case 'point':
    case 'thing':
      return { ...base, export_type: form.exportType };
  }
}

// ── defaults (part 2 §4) ─────────────────────────────────────────────────────

interface CalendarDay {
  year: number;
  month: number;
  day: number;
}

/** Wall-clock parts of `ms` in `timeZone` (Intl, available in browsers, workers and Node). */
function zonedParts(ms: number, timeZone: string): CalendarDay & { hour: number; minute: number; second: number } {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const parts = format.formatToParts(new Date(ms));
  const get = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}

/** The zone's offset from UTC at `ms`, in ms (wall clock minus UTC). */
function zoneOffset(ms: number, timeZone: string): number {
  const p = zonedParts(ms, timeZone);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - (ms - (((ms % 1000) + 1000) % 1000));
}

/** The instant of 00:00 wall-clock time of `day` in `timeZone`. */
export function zonedMidnight(day: CalendarDay, timeZone: string): number {
  const wall = Date.UTC(day.year, day.month - 1, day.day);
  const first = wall - zoneOffset(wall, timeZone);
  const second = wall - zoneOffset(first, timeZone);
  return second;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** The calendar day of `now` in `timeZone`, shifted by `days`. */
function zonedDay(now: number, timeZone: string, days: number): CalendarDay {
  const p = zonedParts(now, timeZone);
  const shifted = new Date(Date.UTC(p.year, p.month - 1, p.day) + days * DAY_MS);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

export function defaultExportTitle(exportType: ExportType, day: CalendarDay): string {
  return `${EXPORT_TYPE_LABELS[exportType]} Export ${pad(day.year, 4)}-${pad(day.month)}-${pad(day.day)}`;
}

export type ExportDefaults = Pick<
  ExportForm,
  'exportType' | 'title' | 'startTime' | 'endTime' | 'useUtc' | 'thingUuids' | 'includeNoThingIl' | 'closuresToInclude'
>;

/**
 * The form's defaults for a type chosen in step 1: the previous day (see the file's header) and
 * the title `${type label} Export ${that day}`. The organization comes from the caller.
 */
export function exportDefaults(now: number, exportType: ExportType, timeZone = 'UTC'): ExportDefaults {
  const yesterday = zonedDay(now, timeZone, -1);
  const today = zonedDay(now, timeZone, 0);
  return {
    exportType,
    title: defaultExportTitle(exportType, yesterday),
    startTime: zonedMidnight(yesterday, timeZone),
    endTime: zonedMidnight(today, timeZone),
    useUtc: timeZone === 'UTC',
    thingUuids: [],
    includeNoThingIl: false,
    closuresToInclude: [],
  };
}
