import { and, eq, isNull, lt, lte, sql } from 'drizzle-orm';
import { MINUTE_MS, SECOND_MS, DAY_MS } from '../../src/domain/constants';
import { POINT_RETENTION_DAYS_DEFAULT, WZDX_FETCH_DEFAULTS } from '../config';
import type { Database, Db } from '../db/connection';
import { jobs, monthlyReports, organizations } from '../db/schema';
import { applyClosureSchedule } from './closure-schedule';
import { JobError } from './job-error';
import type { JobDeps, JobHandler } from './job-handler';
import { exportJob } from './export-csv';
import { monthRange, monthlyReportJob, previousMonthIn, safeZone } from './monthly-report-pdf';
import { deleteOldPoints, retentionCutoff } from './point-retention';
import { importDueWzdxFeeds } from './wzdx-import';

/**
 * The job runner: a queue on the `jobs` table. On Postgres several servers may
 * run it at once; a job is claimed with `FOR UPDATE SKIP LOCKED`, so each runs once. PGlite is one
 * process with one connection: jobs are claimed one after the other in-process, and ticks never
 * overlap (`runOnce` calls queue behind each other).
 *
 * Each tick: flips scheduled closures (every tick), imports the WZDx feeds that are due
 * (wzdx-import.ts; every tick, each feed at its own poll interval), enqueues last month's monthly reports that do
 * not exist yet and deletes points past the retention period (each at most every
 * MAINTENANCE_EVERY_MS), then runs the due jobs. A failing job is retried JOB_MAX_ATTEMPTS times in
 * all with a doubling backoff, then marked failed (an export's row becomes errored with the reason).
 */
export const JOB_MAX_ATTEMPTS = 3;
/** The wait after the first failure; it doubles after each further one (30 s, 60 s, ...). */
export const JOB_BACKOFF_MS = 30 * SECOND_MS;
/** While a job runs, its runner refreshes the job's lock this often (real time). */
export const JOB_HEARTBEAT_MS = 20 * SECOND_MS;
/**
 * A job 'running' whose lock has not been refreshed for this long belongs to a process that died
 * (a crash, kill -9): it is taken back on the next tick. Six missed heartbeats, so a busy but live
 * runner never loses its job.
 */
export const JOB_LOCK_TIMEOUT_MS = 2 * MINUTE_MS;
/** The default tick of a started runner. */
export const JOB_TICK_MS = 5 * SECOND_MS;
/** Report scheduling and point retention run at most this often. */
export const MAINTENANCE_EVERY_MS = 10 * MINUTE_MS;
/** Finished jobs are kept this long for inspection, then deleted with the retention pass. */
export const FINISHED_JOB_KEEP_MS = 30 * DAY_MS;
/** At most this many jobs per tick, so a tick ends and the closures keep flipping on time. */
export const JOBS_PER_TICK = 100;

export const JOB_KINDS = ['export', 'monthly_report'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** The handler of each kind. */
export function jobHandlers(): Readonly<Record<JobKind, JobHandler>> {
  return { export: exportJob, monthly_report: monthlyReportJob };
}

/** Adds a job, due at `runAt` (the server's clock, never the database's). */
export async function enqueueJob(db: Db, kind: JobKind, payload: Record<string, unknown>, runAt: Date): Promise<string> {
  const [row] = await db.insert(jobs).values({ kind, payload, runAt, createdAt: runAt }).returning({ id: jobs.id });
  if (!row) throw new Error('job insert returned nothing');
  return row.id;
}

export interface TickSummary {
  closuresActivated: number;
  closuresDeactivated: number;
  reportsEnqueued: number;
  pointsDeleted: number;
  /** WZDx feeds fetched this tick, and how many of them failed (their reason is on the subscription). */
  feedsFetched: number;
  feedsFailed: number;
  jobsDone: number;
  jobsRetried: number;
  jobsFailed: number;
}

export interface JobRunner {
  /** One tick now; calls queue behind a tick in progress. */
  runOnce(): Promise<TickSummary>;
  /** Stops the timer and waits for the tick in progress. */
  stop(): Promise<void>;
}

export interface JobRunnerOptions {
  engine: Database['engine'];
  /** Tick period; 0 or absent: no timer, ticks only through `runOnce` (tests). */
  intervalMs?: number;
  /** POINT_RETENTION_DAYS by default. */
  retentionDays?: number;
  /** Replaces handlers (tests of the runner itself). */
  handlers?: Partial<Record<string, JobHandler>>;
  /**
   * The server's own runner, started with the process: its first tick takes back the jobs a dead
   * process left 'running'. On PGlite that is every one of them (the data-dir lock admits one
   * process per database); on Postgres, where several servers may share the queue, those whose
   * lock is older than JOB_LOCK_TIMEOUT_MS, as on every tick.
   */
  recoverAtStart?: boolean;
}

type ClaimedJob = { id: string; kind: string; payload: Record<string, unknown>; attempts: number };

/** What a user reads for a job that failed for a reason not written for them. */
const GENERIC_FAILURE = 'The file could not be written. Please try again or contact support.';
/** The jobs row's error of a run cut short by its process dying. */
const INTERRUPTED = 'Interrupted: the process running the job stopped';

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Takes the next due job, marking it running; null when none is due. */
async function claimJob(db: Db, engine: Database['engine'], now: Date): Promise<ClaimedJob | null> {
  // PGlite has one connection and this process is its only runner: a plain select suffices there.
  const lock = engine === 'postgres' ? sql`for update skip locked` : sql``;
  const next = sql`(select ${jobs.id} from ${jobs} where ${jobs.status} = 'queued' and ${jobs.runAt} <= ${now}
    order by ${jobs.runAt}, ${jobs.createdAt} limit 1 ${lock})`;
  const [row] = await db
    .update(jobs)
    .set({ status: 'running', lockedAt: now, attempts: sql`${jobs.attempts} + 1` })
    .where(eq(jobs.id, next))
    .returning({ id: jobs.id, kind: jobs.kind, payload: jobs.payload, attempts: jobs.attempts });
  return row ?? null;
}

/**
 * Last month's report for every organization that existed before that month ended and has none
 * yet, unless one is queued already. "Last month" is on the organization's own wall clock, so an
 * organization in Chicago gets November's report at 00:00 on 1 December in Chicago, not in UTC.
 */
export async function enqueueMissingMonthlyReports(db: Db, now: Date): Promise<number> {
  const orgs = await db
    .select({ id: organizations.id, timeZone: organizations.timezone, createdAt: organizations.createdAt })
    .from(organizations)
    .where(isNull(organizations.deletedAt));
  const wanted: { organizationId: string; year: number; month: number }[] = [];
  for (const org of orgs) {
    const zone = safeZone(org.timeZone);
    const { year, month } = previousMonthIn(now, zone);
    if (org.createdAt.getTime() >= monthRange(year, month, zone).end.getTime()) continue;
    wanted.push({ organizationId: org.id, year, month });
  }
  if (wanted.length === 0) return 0;
  // At most two distinct months (time zones straddle a month boundary for a few hours).
  const months = [...new Map(wanted.map((w) => [`${w.year}-${w.month}`, w])).values()];
  const key = (orgId: string, year: number, month: number) => `${orgId}:${year}-${month}`;
  const have = new Set<string>();
  for (const { year, month } of months) {
    const reports = await db
      .select({ orgId: monthlyReports.organizationId })
      .from(monthlyReports)
      .where(and(eq(monthlyReports.year, year), eq(monthlyReports.month, month)));
    for (const r of reports) have.add(key(r.orgId, year, month));
    const queued = await db
      .select({ orgId: sql<string>`${jobs.payload}->>'organizationId'` })
      .from(jobs)
      .where(
        and(
          eq(jobs.kind, 'monthly_report'),
          sql`${jobs.payload}->>'year' = ${String(year)}`,
          sql`${jobs.payload}->>'month' = ${String(month)}`,
        ),
      );
    for (const j of queued) have.add(key(j.orgId, year, month));
  }
  const missing = wanted.filter((w) => !have.has(key(w.organizationId, w.year, w.month)));
  if (missing.length === 0) return 0;
  await db.insert(jobs).values(missing.map((payload) => ({ kind: 'monthly_report', payload, runAt: now, createdAt: now })));
  return missing.length;
}

export function startJobRunner(deps: JobDeps, options: JobRunnerOptions): JobRunner {
  const { db } = deps;
  const handlers: Partial<Record<string, JobHandler>> = { ...jobHandlers(), ...options.handlers };
  const retentionDays = options.retentionDays ?? deps.config.pointRetentionDays ?? POINT_RETENTION_DAYS_DEFAULT;
  let lastMaintenance: number | null = null;
  let chain: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  async function finish(job: ClaimedJob, error: unknown, summary: TickSummary): Promise<void> {
    const now = deps.now();
    const message = errorMessage(error);
    const final = error instanceof JobError || job.attempts >= JOB_MAX_ATTEMPTS;
    if (!final) {
      const backoff = JOB_BACKOFF_MS * 2 ** (job.attempts - 1);
      await db
        .update(jobs)
        .set({ status: 'queued', lockedAt: null, error: message, runAt: new Date(now.getTime() + backoff) })
        .where(eq(jobs.id, job.id));
      summary.jobsRetried += 1;
      deps.log?.warn({ job: job.id, kind: job.kind, attempts: job.attempts, err: message }, 'job failed, will retry');
      return;
    }
    await db.update(jobs).set({ status: 'failed', lockedAt: null, error: message }).where(eq(jobs.id, job.id));
    summary.jobsFailed += 1;
    deps.log?.error({ job: job.id, kind: job.kind, attempts: job.attempts, err: message }, 'job failed');
    // A user sees only a reason written for them; anything else stays in the jobs row and the log.
    const reason = error instanceof JobError ? message : GENERIC_FAILURE;
    try {
      await handlers[job.kind]?.failed?.(deps, job.payload, reason);
    } catch (hookError) {
      deps.log?.error({ job: job.id, err: errorMessage(hookError) }, 'job failure hook failed');
    }
  }

  async function runJobs(summary: TickSummary): Promise<void> {
    for (let i = 0; i < JOBS_PER_TICK && !stopped; i++) {
      const job = await claimJob(db, options.engine, deps.now());
      if (!job) return;
      const handler = handlers[job.kind];
      // The lock is refreshed while the job runs: a lock that goes stale means its process is gone.
      const heartbeat = setInterval(() => {
        db.update(jobs)
          .set({ lockedAt: deps.now() })
          .where(and(eq(jobs.id, job.id), eq(jobs.status, 'running')))
          .catch((error: unknown) => deps.log?.warn({ job: job.id, err: errorMessage(error) }, 'job heartbeat failed'));
      }, JOB_HEARTBEAT_MS);
      heartbeat.unref();
      try {
        if (!handler) throw new JobError(`No handler for job kind ${job.kind}`);
        await handler.run(deps, job.payload);
        await db.update(jobs).set({ status: 'done', lockedAt: null, error: null }).where(eq(jobs.id, job.id));
        summary.jobsDone += 1;
      } catch (error) {
        await finish(job, error, summary);
      } finally {
        clearInterval(heartbeat);
      }
    }
  }

  async function maintenance(now: Date, summary: TickSummary): Promise<void> {
    if (lastMaintenance !== null && now.getTime() - lastMaintenance < MAINTENANCE_EVERY_MS) return;
    lastMaintenance = now.getTime();
    summary.reportsEnqueued = await enqueueMissingMonthlyReports(db, now);
    summary.pointsDeleted = await deleteOldPoints(db, retentionCutoff(now, retentionDays));
    await db.delete(jobs).where(and(eq(jobs.status, 'done'), lte(jobs.createdAt, new Date(now.getTime() - FINISHED_JOB_KEEP_MS))));
  }

  /**
   * Jobs left 'running' by a process that died: each one's handler undoes its traces (an export's
   * partial file), then it is queued again, due now, or failed when its attempts are used up (each
   * claim counts one, so a job that kills its server every time ends). `staleBefore` null: all.
   */
  async function recoverInterrupted(now: Date, staleBefore: Date | null, summary: TickSummary): Promise<void> {
    const orphans = await db
      .select({ id: jobs.id, kind: jobs.kind, payload: jobs.payload, attempts: jobs.attempts, lockedAt: jobs.lockedAt })
      .from(jobs)
      .where(and(eq(jobs.status, 'running'), staleBefore ? lt(jobs.lockedAt, staleBefore) : undefined));
    for (const job of orphans) {
      const final = job.attempts >= JOB_MAX_ATTEMPTS;
      // Taken only if it is still as it was read: a live runner's heartbeat in between keeps it.
      const [taken] = await db
        .update(jobs)
        .set(
          final
            ? { status: 'failed', lockedAt: null, error: INTERRUPTED }
            : { status: 'queued', lockedAt: null, error: INTERRUPTED, runAt: now },
        )
        .where(and(eq(jobs.id, job.id), eq(jobs.status, 'running'), job.lockedAt ? eq(jobs.lockedAt, job.lockedAt) : isNull(jobs.lockedAt)))
        .returning({ id: jobs.id });
      if (!taken) continue;
      deps.log?.warn(
        { job: job.id, kind: job.kind, attempts: job.attempts },
        final ? 'interrupted job failed' : 'interrupted job queued again',
      );
      try {
        await handlers[job.kind]?.interrupted?.(deps, job.payload);
        if (final) await handlers[job.kind]?.failed?.(deps, job.payload, GENERIC_FAILURE);
      } catch (hookError) {
        deps.log?.error({ job: job.id, err: errorMessage(hookError) }, 'interrupted job hook failed');
      }
      if (final) summary.jobsFailed += 1;
      else summary.jobsRetried += 1;
    }
  }

  let recoverAll = options.recoverAtStart === true && options.engine === 'pglite';

  async function tick(): Promise<TickSummary> {
    const summary: TickSummary = {
      closuresActivated: 0,
      closuresDeactivated: 0,
      reportsEnqueued: 0,
      pointsDeleted: 0,
      feedsFetched: 0,
      feedsFailed: 0,
      jobsDone: 0,
      jobsRetried: 0,
      jobsFailed: 0,
    };
    const now = deps.now();
    await recoverInterrupted(now, recoverAll ? null : new Date(now.getTime() - JOB_LOCK_TIMEOUT_MS), summary);
    recoverAll = false;
    const flipped = await applyClosureSchedule(db, now);
    summary.closuresActivated = flipped.activated.length;
    summary.closuresDeactivated = flipped.deactivated.length;
    const feeds = await importDueWzdxFeeds({ db, now: deps.now, limits: deps.config.wzdxFetch ?? WZDX_FETCH_DEFAULTS, log: deps.log });
    summary.feedsFetched = feeds.length;
    summary.feedsFailed = feeds.filter((feed) => !feed.ok).length;
    await maintenance(now, summary);
    await runJobs(summary);
    return summary;
  }

  function runOnce(): Promise<TickSummary> {
    const next = chain.then(tick, tick);
    chain = next.catch(() => undefined);
    return next;
  }

  if (options.intervalMs && options.intervalMs > 0) {
    const period = options.intervalMs;
    const schedule = () => {
      timer = setTimeout(() => {
        runOnce()
          .catch((error: unknown) => deps.log?.error({ err: errorMessage(error) }, 'job runner tick failed'))
          .finally(() => {
            if (!stopped) schedule();
          });
      }, period);
      timer.unref();
    };
    schedule();
  }

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await chain;
    },
  };
}
