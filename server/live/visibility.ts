import { hasAny, section } from '../../src/domain/permissions';
import type { LiveMessageInput } from '../../src/domain/live-message';
import { canSeeOrg, loadOrgScope, visibleThingIds, type OrgScope } from '../auth/scope';
import type { Db } from '../db/connection';

/** The permission rows of part 1 §6 the REST lists check, written once for the socket too. */
const THINGS_VIEW = section('things').anyOf;
const EVENTS_VIEW = section('events').anyOf;
const CLOSURES_VIEW = section('closures').anyOf;

/** The cache key of haas:manage scopes: they see every asset, whatever their organization. */
const EVERY_ASSET = '*';

/** A live view of the assets a scope sees: it follows refreshes of its organization's set. */
export interface AssetView {
  readonly key: string;
  has(thingId: string): boolean;
}

/** What one socket's caller may receive, read per frame without a query. */
export interface Audience {
  /** The permission checks of the REST lists, answered once for the caller. */
  readonly things: boolean;
  readonly events: boolean;
  readonly closures: boolean;
  readonly scope: OrgScope;
  readonly assets: AssetView;
}

export function audienceOf(caller: { permissions: ReadonlySet<string>; scope: OrgScope }, assets: AssetView): Audience {
  const { permissions, scope } = caller;
  return {
    things: hasAny(permissions, THINGS_VIEW),
    events: hasAny(permissions, EVENTS_VIEW),
    closures: hasAny(permissions, CLOSURES_VIEW),
    scope,
    assets,
  };
}

/**
 * Whether a live message may go to a caller: exactly what the REST calls would show them
 * (OWASP ASVS V4: the same access rule on every channel). Asset messages (point, heartbeat, thing)
 * need the permission of GET /organization/things and the asset in its list; a location needs the
 * permission of GET /locations and the location's organization in scope (GET /locations lists by
 * organization); a closure the permission of the closure list and its organization in scope.
 */
export function mayReceive(audience: Audience, message: LiveMessageInput): boolean {
  const { scope, assets } = audience;
  switch (message.type) {
    case 'point':
    case 'heartbeat':
      return audience.things && assets.has(message.thing_id);
    case 'thing':
      return audience.things && assets.has(message.thing.id);
    case 'location': {
      if (!audience.events) return false;
      // A message without its location (the asset left an incident that is gone) is about the asset.
      const organizationId = message.location?.organization_id;
      return organizationId ? canSeeOrg(scope, organizationId) : assets.has(message.thing_id);
    }
    case 'closure':
      // Without its organization a closure cannot be checked against the closure list: not sent.
      return audience.closures && !!message.organization_id && canSeeOrg(scope, message.organization_id);
  }
}

interface Entry {
  ids: ReadonlySet<string> | null;
  refs: number;
  /** Bumped by every load: a slower, older load never overwrites a newer one. */
  generation: number;
}

/**
 * The visible asset ids per organization, computed by the REST rule (visibleThingIds) once and
 * shared by every socket of that organization — not a query per frame or per client. Entries live
 * while a socket holds them and are reloaded when relations, associations or the fleet change.
 */
export class AssetVisibility {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<Entry>>();

  constructor(private readonly db: Db) {}

  static keyOf(scope: OrgScope): string {
    return scope.visibleOrgIds === null ? EVERY_ASSET : scope.organizationId;
  }

  /** A view of the scope's assets; `release` it when the socket closes or its scope changes. */
  async acquire(scope: OrgScope): Promise<AssetView> {
    const key = AssetVisibility.keyOf(scope);
    const entry = await this.entryOf(key, scope);
    entry.refs += 1;
    return { key, has: (thingId) => entry.ids === null || entry.ids.has(thingId) };
  }

  release(view: AssetView): void {
    const entry = this.entries.get(view.key);
    if (!entry) return;
    entry.refs -= 1;
    if (entry.refs <= 0) this.entries.delete(view.key);
  }

  /** Reloads the sets of these organizations (every held one without a list). */
  async refresh(organizationIds?: Iterable<string>): Promise<void> {
    await Promise.all([...this.loading.values()]);
    const keys = organizationIds ? [...organizationIds].filter((key) => this.entries.has(key)) : [...this.entries.keys()];
    await Promise.all(keys.map((key) => this.reload(key)));
  }

  private async entryOf(key: string, scope: OrgScope): Promise<Entry> {
    const held = this.entries.get(key);
    if (held) return held;
    let pending = this.loading.get(key);
    if (!pending) {
      pending = visibleThingIds(this.db, scope)
        .then((ids) => {
          const entry: Entry = this.entries.get(key) ?? { ids, refs: 0, generation: 0 };
          this.entries.set(key, entry);
          return entry;
        })
        .finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  private async reload(key: string): Promise<void> {
    const entry = this.entries.get(key);
    if (!entry || key === EVERY_ASSET) return;
    const generation = ++entry.generation;
    // The scope is read again: the change may be a relation of this very organization.
    const ids = await visibleThingIds(this.db, await loadOrgScope(this.db, key, false));
    if (entry.generation === generation) entry.ids = ids;
  }
}
