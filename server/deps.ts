import { EventEmitter } from 'node:events';
import type { ServerConfig } from './config';
import type { Db } from './db/connection';
import type { Mailer } from './mail/mailer';
import type { Bus } from './live/bus';

/** Server-wide happenings other parts react to (the socket hub closes revoked tokens' sockets). */
export interface ServerEventMap {
  'tokens-revoked': [tokenIds: string[]];
}

/** What every route module receives: one place to swap the clock, the database or the mailer in tests. */
export interface ServerDeps {
  config: ServerConfig;
  db: Db;
  mailer: Mailer;
  now(): Date;
  events: EventEmitter<ServerEventMap>;
  /** Live messages between ingest and the sockets (in-process, or NATS). */
  bus: Bus;
}

export function createEvents(): EventEmitter<ServerEventMap> {
  return new EventEmitter<ServerEventMap>();
}
