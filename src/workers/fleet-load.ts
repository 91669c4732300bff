/**
 * The live loader's reading of the fleet (part 1 §7): the pages of GET /organization/things, or the
 * fleet snapshot after the first page, each applied as it comes with the load's progress, and the
 * time the next incremental load of the fleet starts from.
 */
import type { ThingWire } from '../domain/asset';
import { THINGS_PAGE_MAX, THINGS_PAGE_SIZE, THINGS_PAGES_IN_FLIGHT } from '../domain/constants';
import { pageCount } from '../domain/incremental';
import { UnauthorizedError, UnavailableError, type LiveApi, type ThingsPage } from './live-api';
import type { LiveCore } from './live-core';
import type { LiveStatus } from './live-protocol';
import type { LiveScheduler } from './live-scheduler';
import { LIST_NAME, mark, Superseded, type LoaderSession } from './loader-session';

/** The name under which an unavailable fleet snapshot is not asked again this session. */
const SNAPSHOT = 'snapshot';
/** The name under which an unavailable fleet snapshot since a time is not asked again this session. */
const CHANGES = 'snapshot since';
/** The fleet snapshot's assets added at a time (about 40 ms of the worker's time each here). */
const SNAPSHOT_SLICE = 10_000;

export interface FleetLoadOptions {
  session: LoaderSession;
  core: LiveCore;
  scheduler: LiveScheduler;
  now: () => number;
  setStatus: (patch: Partial<LiveStatus>) => void;
}

/** A reading's progress: the answers applied out of those it reads, reported when `report`. */
class FleetProgress {
  loaded = 0;

  constructor(
    readonly report: boolean,
    public pages: number,
    private readonly options: FleetLoadOptions,
  ) {}

  applied(): void {
    this.loaded += 1;
    if (this.report) this.show();
    this.options.scheduler.flush();
  }

  show(): void {
    this.options.setStatus({ progress: { loaded: this.loaded, total: this.pages } });
  }
}

export class FleetLoad {
  /** Where the next incremental load of the fleet starts (the first page's time); null: a full load. */
  since: string | null = null;

  constructor(private readonly options: FleetLoadOptions) {}

  /**
   * All pages of GET /organization/things (incremental from `since`), each applied as it comes: the
   * first alone (it tells the count), the rest THINGS_PAGES_IN_FLIGHT at a time (part 1 §7 asks
   * them one after another; docs/decisions/spec.md). A full load asks its first page at the spec's
   * THINGS_PAGE_SIZE (500): the Live list and the map show their first assets while the server
   * makes the large pages (part 1 §2: the first screen does not wait for the whole fleet); the large
   * pages then start from the first asset again (at most 500 wires twice). A full load of a fleet
   * larger than one large page reads the fleet snapshot after the first page: the map, the list and
   * the counts then hold every asset from one call, each wire whole, and no page follows; a
   * snapshot without its details (another server version) or none leaves the pages to bring each
   * asset's full wire. A failed page stops the others. `after`: the first page is asked at once but applied (and the
   * rest asked) once it settles. `subscribed`: a full load whose first page was small waits for it
   * before asking the rest (the snapshot and the large pages, which read every asset again).
   * Answers whether every asset was read after the socket was subscribed (the load then leaves no
   * gap for an incremental load to close).
   */
  async read(
    own: number,
    since: string | null,
    report: boolean,
    after: Promise<unknown> = Promise.resolve(),
    subscribed: () => Promise<boolean> = () => Promise.resolve(false),
  ): Promise<boolean> {
    const { session } = this.options;
    const current = session.api;
    // A user who may not list assets (part 1 §6) has no fleet: nothing is asked.
    if (!current || session.unavailable.has(LIST_NAME.things)) return false;
    const small = since === null && current.perPage > THINGS_PAGE_SIZE;
    const [first] = await Promise.all([current.thingsPage(1, since, small ? THINGS_PAGE_SIZE : current.perPage), after]);
    session.check(own);
    // The large pages still to ask: all of them after a small first page that did not hold the list.
    let next = small ? 1 : 2;
    const last = small ? (first.pages > 1 ? pageCount(first.total, current.perPage) : 0) : first.pages;
    const snapshot = since === null && first.total > THINGS_PAGE_MAX && !session.unavailable.has(SNAPSHOT);
    // The first page and then the snapshot, or the large pages (a snapshot that is not whole adds them).
    const progress = new FleetProgress(report, snapshot ? 2 : last - next + 2, this.options);
    this.apply(first, true, progress);
    if (report) mark('first page applied');
    const readAfterSubscribed = small && last > 0 && (await subscribed());
    session.check(own);
    if (snapshot) {
      const read = await this.loadSnapshot(own, current);
      next = this.snapshotApplied(read, progress, next, last);
    }
    await this.readPages(own, current, since, { next, last }, progress);
    if (report) mark('pages applied');
    // The first page's time: whatever changed while paging is fetched again next time. An
    // incremental load that brought nothing keeps its time, so the next poll is the same call and
    // an unchanged list answers 304 with no body (the server's ETag).
    const nothing = since !== null && first.pages === 1 && first.things.length === 0 && first.deletedIds.length === 0;
    if (!nothing) this.since = first.serverTimestamp;
    return readAfterSubscribed;
  }

  /**
   * part 1 §7's poll of the fleet: what changed since the last load. While the organization polls
   * (`compact`), the fleet snapshot since that time (docs/decisions/spec.md "The fleet snapshot
   * since a time"): the changed assets' rows and the deleted ids in one compact answer instead of
   * the list's pages of full wires. A server without it (404, or an answer that is not one since a
   * time: not asked again this session) or a failed answer leaves the poll to the pages, as
   * `read`, exactly as the full load's snapshot.
   */
  async poll(own: number, compact: boolean): Promise<void> {
    const { session } = this.options;
    const { since } = this;
    const current = session.api;
    if (since !== null && compact && current && !session.unavailable.has(LIST_NAME.things) && !session.unavailable.has(CHANGES)) {
      if (await this.readChanges(own, current, since)) return;
    }
    await this.read(own, since, since === null);
  }

  /** The fleet snapshot since `since`, applied; false when it could not be read (the pages then bring the changes). */
  private async readChanges(own: number, current: LiveApi, since: string): Promise<boolean> {
    const { session, scheduler } = this.options;
    try {
      const changes = await current.thingChanges(since);
      session.check(own);
      if (!changes) {
        session.unavailable.add(CHANGES);
        return false;
      }
      await this.loadSliced(own, changes.wires, changes.deletedIds, false);
      scheduler.flush();
      // As `read`: a poll that brought nothing keeps its time, so the next one is the same call
      // and an unchanged fleet answers 304 with no body.
      if (changes.wires.length > 0 || changes.deletedIds.length > 0) this.since = changes.serverTimestamp;
      return true;
    } catch (error) {
      if (error instanceof Superseded || error instanceof UnauthorizedError) throw error;
      if (error instanceof UnavailableError) session.unavailable.add(CHANGES);
      return false;
    }
  }

  /**
   * Wires added SNAPSHOT_SLICE at a time (the deleted ids with the first), letting the main
   * thread's calls through between them: the Live list asks for its first rows once it drew the
   * first page, and should not wait for the whole fleet behind it.
   */
  private async loadSliced(
    own: number,
    wires: readonly ThingWire[],
    deletedIds: readonly string[],
    detailsPending: boolean,
  ): Promise<void> {
    const { session, core, now } = this.options;
    for (let start = 0; start === 0 || start < wires.length; start += SNAPSHOT_SLICE) {
      if (start > 0) {
        await new Promise<void>((resolve) => setTimeout(resolve, 0));
        session.check(own);
      }
      core.loadThings(wires.slice(start, start + SNAPSHOT_SLICE), start === 0 ? deletedIds : [], now(), detailsPending);
    }
  }

  private apply(answer: ThingsPage, isFirst: boolean, progress: FleetProgress): void {
    this.options.core.loadThings(answer.things, isFirst ? answer.deletedIds : [], this.options.now());
    progress.applied();
  }

  /** The progress once the snapshot was read (or not); answers the first large page still to ask. */
  private snapshotApplied(read: 'whole' | 'narrow' | null, progress: FleetProgress, next: number, last: number): number {
    // Whole wires: the load ends with the snapshot (docs/decisions/spec.md).
    if (read === 'whole') next = last + 1;
    progress.pages = progress.loaded + (read ? 1 : 0) + Math.max(0, last - next + 1);
    if (read) {
      progress.applied();
      if (progress.report) mark('snapshot applied');
    } else if (progress.report) progress.show();
    return next;
  }

  /** The large pages `next` to `last`, THINGS_PAGES_IN_FLIGHT lanes asking one after another; a failed page stops the others. */
  private readPages(
    own: number,
    current: LiveApi,
    since: string | null,
    range: { next: number; last: number },
    progress: FleetProgress,
  ): Promise<void[]> {
    let stopped = false;
    const lane = async () => {
      while (!stopped && range.next <= range.last) {
        const page = range.next;
        range.next += 1;
        try {
          const answer = await current.thingsPage(page, since);
          this.options.session.check(own);
          if (!stopped) this.apply(answer, false, progress);
        } catch (error) {
          stopped = true;
          throw error;
        }
      }
    };
    return Promise.all(Array.from({ length: THINGS_PAGES_IN_FLIGHT }, lane));
  }

  /**
   * The fleet snapshot's assets: 'whole' when the answer carried its details (every asset, the
   * first page's too: the snapshot was read after the socket's subscription, as the pages it
   * replaces were), 'narrow' when not (only the assets not held yet: a full wire, of the first page
   * or an earlier load, is never replaced by a narrow one; each waits for its page's details,
   * `detailsPending`);
   * null when it could not be read (a server without it, a failed call, an answer that does not
   * read): the pages then bring every asset, as without it. A refused token or a newer session ends
   * the load as any call's would.
   */
  private async loadSnapshot(own: number, current: LiveApi): Promise<'whole' | 'narrow' | null> {
    const { session, core } = this.options;
    try {
      const { wires, complete } = await current.thingSnapshot();
      session.check(own);
      const fresh = complete ? wires : wires.filter((wire) => !core.fleet.has(wire.id));
      await this.loadSliced(own, fresh, [], !complete);
      return complete ? 'whole' : 'narrow';
    } catch (error) {
      if (error instanceof Superseded || error instanceof UnauthorizedError) throw error;
      if (error instanceof UnavailableError) session.unavailable.add(SNAPSHOT);
      return null;
    }
  }
}
