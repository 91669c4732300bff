/**
 * The REST calls the live worker makes (part 1 §7, part 2 §7): the paged and incremental things,
 * the events, the closures and the areas (for the stations), each answer parsed with its schema
 * (CONVENTIONS §5). Every call carries the bearer token the main thread handed over last; a 401 is
 * raised as `UnauthorizedError` so the engine can report it and the app signs out (part 1 §4 Session).
 */
import { z } from 'zod';
import { areaWireSchema, fromAreaWire, stationsFrom, type Station } from '../domain/area';
import { thingWireSchema, type ThingWire } from '../domain/asset';
import { closureWireSchema, type ClosureWire } from '../domain/closure';
import { EVENT_HISTORY_MS, THINGS_PAGE_SIZE } from '../domain/constants';
import { incrementalAnswerSchema, pageCount, pagedAnswerSchema } from '../domain/incremental';
import { locationWireSchema, type LocationWire } from '../domain/location';
import { thingSnapshotSchema, thingWiresFromSnapshot, snapshotIsComplete } from '../domain/thing-snapshot';
import { isServerBusy } from '../domain/errors';

export class UnauthorizedError extends Error {
  /** `token`: the one the refused call carried (a refresh may have replaced it while the call travelled). */
  constructor(readonly token: string) {
    super('unauthorized');
    this.name = 'UnauthorizedError';
  }
}

/** A call the user may not make (403) or that does not exist for them (404): the data is left out. */
export class UnavailableError extends Error {
  constructor(
    readonly path: string,
    readonly status: number,
  ) {
    super(`${path} answered ${status}`);
    this.name = 'UnavailableError';
  }
}

export interface LiveApiOptions {
  /** Origin (and base path) of the API, e.g. `https://lightbar.example`. */
  apiBase: string;
  token: () => string;
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  /** Organizations to ask for (`org_ids[]`); none = the caller's own scope. */
  orgIds: readonly string[];
  /** The things page size (`per_page`). */
  perPage: number;
  /** Waits before a call a busy server asked to make again (default: a timer). */
  wait?: (ms: number) => Promise<void>;
}

/** How often a call a busy server answered (502/503/504) is made again before the load fails. */
export const BUSY_RETRIES = 5;
/** The wait before it when the server names none (ms); a Retry-After is kept within BUSY_WAIT_MAX_MS. */
export const BUSY_WAIT_MS = 2_000;
export const BUSY_WAIT_MAX_MS = 30_000;

/** The wait a busy answer asks for: its Retry-After in seconds (an HTTP date is not used here), else BUSY_WAIT_MS. */
export function busyWaitMs(retryAfter: string | null): number {
  const seconds = retryAfter === null ? Number.NaN : Number(retryAfter.trim());
  if (!Number.isFinite(seconds) || seconds < 0) return BUSY_WAIT_MS;
  return Math.min(BUSY_WAIT_MAX_MS, Math.max(0, seconds * 1_000));
}

const thingsPageSchema = pagedAnswerSchema(thingWireSchema);
const locationsSchema = incrementalAnswerSchema(locationWireSchema);
const closuresSchema = incrementalAnswerSchema(closureWireSchema);
const areasSchema = z.array(areaWireSchema);

export interface ThingsPage {
  things: ThingWire[];
  deletedIds: string[];
  serverTimestamp: string;
  page: number;
  /** The assets the whole list holds (meta.total). */
  total: number;
  pages: number;
}

export interface IncrementalAnswer<T> {
  items: T[];
  deletedIds: string[];
  serverTimestamp: string;
}

/** What the worker reads of the organization record: who it owns with it (part 1 §3 childStructure). */
const childStructureSchema = z.object({ child_structure: z.array(z.object({ id: z.string() })).default([]) });

const NOT_MODIFIED = 304;
/** Answers kept for revalidation: every page of a large fleet plus the incremental polls. */
const VALIDATED_MAX = 64;

export class LiveApi {
  constructor(private readonly options: LiveApiOptions) {}

  private url(path: string, params: [string, string][]): string {
    const query = new URLSearchParams();
    for (const id of this.options.orgIds) query.append('org_ids[]', id);
    for (const [key, value] of params) query.append(key, value);
    const text = query.toString();
    return `${this.options.apiBase.replace(/\/$/, '')}${path}${text ? `?${text}` : ''}`;
  }

  /**
   * The last answer of each URL that came with an ETag (RFC 9110 §13): sent back as If-None-Match,
   * a 304 reuses it, so a poll of a large organization that changed nothing costs no list. Kept in
   * memory only (the server answers no-store), the oldest dropped beyond VALIDATED_MAX.
   */
  private readonly validated = new Map<string, { etag: string; value: unknown }>();

  private async get<T>(
    path: string,
    params: [string, string][],
    schema: z.ZodType<T>,
    keep: (value: T) => boolean = () => true,
  ): Promise<T> {
    const url = this.url(path, params);
    const cached = this.validated.get(url);
    let token = '';
    // Each attempt carries the token handed over last (a refresh may come during a wait).
    const send = () => {
      token = this.options.token();
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
      if (cached) headers['if-none-match'] = cached.etag;
      return this.options.fetch(url, { headers });
    };
    let response = await send();
    // A busy server (load shedding answers 503 with Retry-After): the same call after the wait it
    // asks for, a few times, before the load counts as failed (polling would then start it over).
    const wait = this.options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    for (let retry = 0; isServerBusy({ status: response.status }) && retry < BUSY_RETRIES; retry += 1) {
      await response.body?.cancel().catch(() => undefined);
      await wait(busyWaitMs(response.headers.get('retry-after')));
      response = await send();
    }
    if (response.status === 401) throw new UnauthorizedError(token);
    if (response.status === 403 || response.status === 404) throw new UnavailableError(path, response.status);
    // The value was parsed with this URL's schema when it was stored.
    if (response.status === NOT_MODIFIED && cached) return cached.value as T;
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
    const value = schema.parse(await response.json());
    const etag = response.headers.get('etag');
    this.validated.delete(url);
    if (etag && keep(value)) {
      this.validated.set(url, { etag, value });
      const oldest = this.validated.keys().next();
      if (this.validated.size > VALIDATED_MAX && !oldest.done) this.validated.delete(oldest.value);
    }
    return value;
  }

  /** The things page size this API asks for unless told otherwise. */
  get perPage(): number {
    return this.options.perPage;
  }

  /** One page of GET /organization/things (part 1 §7), incremental when `since` is given. */
  async thingsPage(page: number, since: string | null, perPage = this.options.perPage): Promise<ThingsPage> {
    const params: [string, string][] = [
      ['page', String(page)],
      ['per_page', String(perPage)],
    ];
    if (since) params.push(['last_updated_timestamp', since]);
    // Only a small answer is kept for revalidation: what a poll asks again is what changed (usually
    // nothing), while the initial load's pages are asked once a session, and keeping them held
    // the whole fleet twice (the worker's heap 375 MiB at 100,000 assets instead of about 140).
    const answer = await this.get(
      '/organization/things',
      params,
      thingsPageSchema,
      (value) => value.data.length + value.meta.deleted_ids.length <= THINGS_PAGE_SIZE,
    );
    return {
      things: answer.data,
      deletedIds: answer.meta.deleted_ids,
      serverTimestamp: answer.meta.server_timestamp,
      page: answer.meta.page,
      total: answer.meta.total,
      pages: pageCount(answer.meta.total, answer.meta.per_page),
    };
  }

  /**
   * GET /organization/things/snapshot (docs/decisions/spec.md): every asset of the list, each
   * with the wire fields the snapshot carries; `complete` when its details came too (every wire
   * whole). Never kept for revalidation (asked once a load).
   */
  async thingSnapshot(): Promise<{ wires: ThingWire[]; complete: boolean }> {
    const answer = await this.get('/organization/things/snapshot', [], thingSnapshotSchema, () => false);
    return { wires: thingWiresFromSnapshot(answer), complete: snapshotIsComplete(answer) };
  }

  /**
   * GET /organization/things/snapshot?since= (docs/decisions/spec.md "The fleet snapshot since a
   * time"): the assets changed after `since`, each wire whole, and the ids deleted since; null when
   * the answer is not one since a time (no `deleted_ids`: a server that reads no `since` answers
   * the whole fleet) or lacks its details. A small answer is kept for revalidation, as a poll's
   * page: an unchanged fleet then answers 304 with no body.
   */
  async thingChanges(since: string): Promise<{ wires: ThingWire[]; deletedIds: string[]; serverTimestamp: string } | null> {
    const answer = await this.get(
      '/organization/things/snapshot',
      [['since', since]],
      thingSnapshotSchema,
      (value) => value.rows.length + (value.meta.deleted_ids?.length ?? 0) <= THINGS_PAGE_SIZE,
    );
    const deletedIds = answer.meta.deleted_ids;
    if (!deletedIds || !snapshotIsComplete(answer)) return null;
    return { wires: thingWiresFromSnapshot(answer), deletedIds, serverTimestamp: answer.meta.server_timestamp };
  }

  /** GET /locations: the first fetch covers EVENT_HISTORY_MS (7 days), later ones what changed since. */
  async locations(since: string | null, now: number): Promise<IncrementalAnswer<LocationWire>> {
    const params: [string, string][] = since
      ? [['last_updated_timestamp', since]]
      : [['start_date', new Date(now - EVENT_HISTORY_MS).toISOString()]];
    const answer = await this.get('/locations', params, locationsSchema);
    return { items: answer.data, deletedIds: answer.meta.deleted_ids, serverTimestamp: answer.meta.server_timestamp };
  }

  /** GET /organization/closure, incremental when `since` is given. */
  async closures(since: string | null): Promise<IncrementalAnswer<ClosureWire>> {
    const answer = await this.get('/organization/closure', since ? [['last_updated_timestamp', since]] : [], closuresSchema);
    return { items: answer.data, deletedIds: answer.meta.deleted_ids, serverTimestamp: answer.meta.server_timestamp };
  }

  /** The child organizations of `organizationId` (GET /organization/{id}, its child_structure; part 1 §3). */
  async childOrganizations(organizationId: string): Promise<string[]> {
    const answer = await this.get(`/organization/${encodeURIComponent(organizationId)}`, [], childStructureSchema);
    return answer.child_structure.map((child) => child.id);
  }

  /** The stations among the areas (GET /organization/exclusion_zone; part 1 §4 station check). */
  async stations(): Promise<Station[]> {
    return stationsFrom((await this.get('/organization/exclusion_zone', [], areasSchema)).map(fromAreaWire));
  }
}
