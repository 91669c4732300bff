import { EventEmitter } from 'node:events';
import type { ServerConfig } from './config';
import type { Db } from './db/connection';
import type { Mailer } from './mail/mailer';
import type { ServerMetrics } from './core/metrics';
import type { LiveMessageInput } from '../src/domain/live-message';

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

/** What every server process must apply to its own open sockets, wherever the change was made. */
export type ControlEvent = { type: 'tokens-revoked'; tokenIds: string[] } | { type: 'access-changed'; change: AccessChange };

/**
 * Between ingest and socket fan-out (docs/architecture.md "The live data path"; live/bus.ts implements it): in-process
 * by default; NATS with NATS_URL, one subject per organization, so any number of server
 * processes share one stream. A message is published on the subject of every organization
 * that may see its asset (the audience), so a subscriber listens to one subject only.
 */
export interface Bus {
  publish(organizationId: string, message: LiveMessageInput): void;
  /** Returns the unsubscribe function. */
  subscribe(organizationId: string, handler: (message: LiveMessageInput) => void): () => void;
  /** To every process, this one included (revocations and access changes reach every socket). */
  publishControl(event: ControlEvent): void;
  subscribeControl(handler: (event: ControlEvent) => void): () => void;
  /** Whether messages reach the other processes now (GET /ready): in-process, until closed; NATS, while connected. */
  connected(): boolean;
  close(): Promise<void>;
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
  /** GET /metrics: the counts each part reports (server/core/metrics.ts). */
  metrics: ServerMetrics;
}

export function createEvents(): EventEmitter<ServerEventMap> {
  return new EventEmitter<ServerEventMap>();
}
