/**
 * The live loader's calls beside the fleet's (part 1 §7): the stations, the organization's
 * children, the events and the closures. Each is optional: one that answered 403/404 is not asked
 * again this session.
 */
import type { LiveCore } from './live-core';
import type { LiveScheduler } from './live-scheduler';
import { LIST_NAME, type LoaderSession } from './loader-session';

export interface SideLoadsOptions {
  session: LoaderSession;
  core: LiveCore;
  scheduler: LiveScheduler;
  now: () => number;
}

export class SideLoads {
  constructor(private readonly options: SideLoadsOptions) {}

  async stations(own: number): Promise<void> {
    const { session, core, now } = this.options;
    await session.optional(LIST_NAME.areas, async () => {
      const stations = await session.api!.stations();
      session.check(own);
      core.setStations(stations, now());
    });
  }

  /** The organizations that own with the subscribed one (its children), before the fleet is counted by them. */
  async ownedOrganizations(own: number, organizationId: string): Promise<void> {
    const { session, core, now } = this.options;
    await session.optional('organization', async () => {
      const children = await session.api!.childOrganizations(organizationId);
      session.check(own);
      core.setOwnedOrganizations([organizationId, ...children], now());
    });
  }

  async events(own: number): Promise<void> {
    const { session, core, now } = this.options;
    await session.optional(LIST_NAME.events, async () => {
      const answer = await session.api!.locations(core.events.since, now());
      session.check(own);
      core.loadEvents(answer.items, answer.deletedIds);
      core.events.since = answer.serverTimestamp;
    });
  }

  async eventsAndClosures(own: number): Promise<void> {
    await this.events(own);
    await this.closures(own);
  }

  /** Closures after the things: each active one marks the assets it names (they must be held). */
  async closures(own: number): Promise<void> {
    const { session, core, scheduler, now } = this.options;
    await session.optional(LIST_NAME.closures, async () => {
      const answer = await session.api!.closures(core.closures.since);
      session.check(own);
      core.loadClosures(answer.items, answer.deletedIds, now());
      core.closures.since = answer.serverTimestamp;
    });
    scheduler.flush();
  }
}
