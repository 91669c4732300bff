import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../config';
import type { Db } from '../db/connection';

/** What jobs need from the server: the database, the data folder for files, the clock. */
export interface JobDeps {
  db: Db;
  config: Pick<ServerConfig, 'dataDir'> & Partial<Pick<ServerConfig, 'wzdxFetch' | 'pointRetentionDays'>>;
  now(): Date;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** A running export's progress write period (export-csv.ts EXPORT_PROGRESS_EVERY_MS unless set; tests set 0). */
  exportProgressEveryMs?: number;
}

export interface JobHandler {
  run(deps: JobDeps, payload: Record<string, unknown>): Promise<void>;
  /** Called once when the job has failed for good, with the reason. */
  failed?(deps: JobDeps, payload: Record<string, unknown>, reason: string): Promise<void>;
  /** Called when a run was cut short by its process dying, before the job is queued again or failed: undo its traces. */
  interrupted?(deps: JobDeps, payload: Record<string, unknown>): Promise<void>;
}
