import { EventEmitter } from 'node:events';
import type { ServerConfig } from './config';
import type { Db } from './db/connection';
import type { Mailer } from './mail/mailer';
import type { Bus } from './live/bus';

/**
 * Who a change of access concerns: the users whose role (permissions) changed, the organizations
 * whose scope or shared assets changed, or everyone (`all`, e.g. an organization deleted with its
 * relations).
 */
export interface AccessChange {
  readonly userIds?: readonly string[];
  readonly organizationIds?: readonly string[];
  readonly all?: boolean;
}

/** Server-wide happenings other parts react to (the socket hub closes revoked tokens' sockets). */
export interface ServerEventMap {
  'tokens-revoked': [tokenIds: string[]];
  /** Relations, associations or roles changed: open sockets re-check what their callers may see. */
  'access-changed': [change: AccessChange];
  /** The fleet was (re)loaded: a new asset may be visible to open sockets. */
  'assets-changed': [];
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
