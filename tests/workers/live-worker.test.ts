/**
 * The live worker end to end under @vitest/web-worker: the real worker module behind Comlink, the
 * real bridge and store on this side, a real `ws` socket server speaking ActionCable JSON and a
 * fake fetch answering the REST calls. Fake timers (setTimeout, setInterval, Date only: socket I/O
 * stays real) drive staleness, reconnect delays and polling.
 */
import '@vitest/web-worker';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import WS from 'ws';
import { subscribeKey } from 'valtio/utils';
import { ASSET_STATUS } from '../../src/domain/asset-status';
import { defaultStatusFilter } from '../../src/domain/asset-filter';
import {
  HOUR_MS,
  POLL_INTERVAL_MS,
  SECOND_MS,
  SOCKET_BATCH_MS,
  SOCKET_DEAD_AFTER_MS,
  SOCKET_PROTOCOL,
  SOCKET_RECONNECT_ATTEMPTS,
  STALE_AFTER_MS,
  THINGS_PAGE_MAX,
  THINGS_PAGE_SIZE,
  THINGS_PAGES_IN_FLIGHT,
  QUERY_REFRESH_MS,
} from '../../src/domain/constants';
import { LIVE_BATCH_PROTOCOL, eventsChannelIdentifier } from '../../src/domain/live-message';
import { createLiveBridge, type LiveBridge, type LiveStart } from '../../src/app/live/bridge';
import { FLAG_AT_STATION, FLAG_LISTED, FLAG_STALE } from '../../src/domain/live-diff';
import { reconnectDelay } from '../../src/workers/socket-client';
import { SUBSCRIBE_WAIT_MS } from '../../src/workers/live-loader';
import { sleep, until, untilAsync } from '../support/until';
import { FakeApi, FakeCable, NOW, ORG, OTHER_ORG, TOKEN, iso, stationArea, thing } from '../support/live-fixtures';

let api: FakeApi;
let cable: FakeCable;
let bridge: LiveBridge | null = null;
let unauthorized = 0;
const originalFetch = globalThis.fetch;

beforeAll(() => {
  (globalThis as { WebSocket?: unknown }).WebSocket = WS;
});
afterAll(() => {
  globalThis.fetch = originalFetch;
});

beforeEach(async () => {
  // Date stands still at NOW (timers stay real) so statuses do not depend on the time of day;
  // `useFakeClock` fakes the timers too.
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  api = new FakeApi();
  globalThis.fetch = api.fetch as typeof fetch;
  cable = new FakeCable();
  await cable.listen();
  unauthorized = 0;
});

afterEach(async () => {
  vi.useRealTimers();
  await bridge?.dispose();
  bridge = null;
  await cable.close();
});

function useFakeClock(at = NOW): void {
  vi.useRealTimers();
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'], now: at });
}

async function startBridge(overrides: Partial<LiveStart> = {}): Promise<LiveBridge> {
  bridge = createLiveBridge({ signals: null, storage: null, onUnauthorized: () => (unauthorized += 1) });
  await bridge.start({ apiBase: 'http://api.test', socketUrl: cable.url, token: TOKEN, organizationId: ORG, ...overrides });
  return bridge;
}

const slotOf = async (b: LiveBridge, id: string) => {
  const rows = await b.rows(0, b.store.listLength);
  return rows.findIndex((row) => row.id === id);
};

/** The slot the worker gave an asset: found through the list's order. */
async function slotFor(b: LiveBridge, id: string): Promise<number> {
  const index = await slotOf(b, id);
  const slot = b.store.order[index];
  if (slot === undefined) throw new Error(`${id} is not listed`);
  return slot;
}

/** Holds the fake server's answers to the calls `held` picks until the returned function is called. */
function holdCalls(held: (url: URL) => boolean): () => void {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const answer = api.fetch;
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    if (held(new URL(String(input)))) await gate;
    return answer(input, init);
  }) as typeof fetch;
  return release;
}

describe('part1 §7 initial paging and §4 the socket', () => {
  it('fetches every page of its page size, reporting progress, then subscribes with the protocol pair', async () => {
    api.setThings(Array.from({ length: 1201 }, (_, i) => thing(i)));
    const progress: string[] = [];
    const b = await startBridge({ thingsPageSize: 500 });
    const unsubscribe = setInterval(() => progress.push(`${b.store.progress.loaded}/${b.store.progress.total}`), 1);
    await until(() => b.store.phase === 'live' && b.store.total === 1201, 'the load');
    clearInterval(unsubscribe);
    const pages = api.callsTo('/organization/things').slice(0, 3);
    expect(
      pages.map((url) => [url.searchParams.get('page'), url.searchParams.get('per_page'), url.searchParams.get('last_updated_timestamp')]),
    ).toEqual([
      ['1', '500', null],
      ['2', '500', null],
      ['3', '500', null],
    ]);
    expect(b.store.progress).toMatchObject({ loaded: 3, total: 3, done: true });
    expect(b.store.counts[ASSET_STATUS.standby]).toBe(1201);
    // the socket: protocol pair, subscribe to the organization's channel
    const connection = await until(() => cable.subscribed[0], 'a subscription');
    expect(connection.protocols).toEqual([SOCKET_PROTOCOL, TOKEN, LIVE_BATCH_PROTOCOL]);
    expect(connection.subscriptions).toEqual([eventsChannelIdentifier(ORG)]);
    await until(() => b.store.connectivity.socket === 'subscribed', 'subscribed state');
    // the subscription is followed by an incremental load that closes the gap
    const incremental = await until(
      () => api.callsTo('/organization/things').find((url) => url.searchParams.get('last_updated_timestamp')),
      'an incremental load',
    );
    expect(incremental.searchParams.get('page')).toBe('1');
    expect(b.store.connectivity.polling).toBe(false);
    expect(api.callsTo('/locations')[0]?.searchParams.get('start_date')).toBe(
      new Date(Date.parse(api.callsTo('/locations')[0]!.searchParams.get('start_date')!)).toISOString(),
    );
  });

  it('asks a first page of THINGS_PAGE_SIZE, then pages of THINGS_PAGE_MAX by default: 1,201 assets in one large page', async () => {
    api.setThings(Array.from({ length: 1201 }, (_, i) => thing(i)));
    const b = await startBridge();
    await until(() => b.store.phase === 'live' && b.store.total === 1201, 'the load');
    const pages = api.callsTo('/organization/things').filter((url) => !url.searchParams.has('last_updated_timestamp'));
    expect(pages.map((url) => [url.searchParams.get('page'), url.searchParams.get('per_page')])).toEqual([
      ['1', String(THINGS_PAGE_SIZE)],
      ['1', String(THINGS_PAGE_MAX)],
    ]);
    expect(b.store.progress).toMatchObject({ loaded: 2, total: 2, done: true });
    expect(new Set((await b.rows(0, 1201)).map((row) => row.id)).size).toBe(1201);
  });

  it('a fleet of at most THINGS_PAGE_SIZE is one small page', async () => {
    api.setThings(Array.from({ length: THINGS_PAGE_SIZE }, (_, i) => thing(i)));
    const b = await startBridge();
    await until(() => b.store.phase === 'live' && b.store.total === THINGS_PAGE_SIZE, 'the load');
    const pages = api.callsTo('/organization/things').filter((url) => !url.searchParams.has('last_updated_timestamp'));
    expect(pages.map((url) => [url.searchParams.get('page'), url.searchParams.get('per_page')])).toEqual([['1', String(THINGS_PAGE_SIZE)]]);
    expect(b.store.progress).toMatchObject({ loaded: 1, total: 1, done: true });
  });

  it('the Live list shows the first small page while the fleet snapshot is made (part 1 §2: the first screen does not wait for the fleet)', async () => {
    api.setThings(Array.from({ length: 12_001 }, (_, i) => thing(i)));
    const release = holdCalls((url) => url.pathname === '/organization/things/snapshot');
    const b = await startBridge();
    await until(() => b.store.listLength === THINGS_PAGE_SIZE, 'the first small page listed');
    expect(b.store.phase).toBe('loading');
    // The small page, then the snapshot.
    expect(b.store.progress).toMatchObject({ loaded: 1, total: 2 });
    expect((await b.rows(0, 3)).length).toBe(3);
    release();
    await until(() => b.store.phase === 'live' && b.store.total === 12_001, 'the load');
    expect(b.store.progress).toMatchObject({ loaded: 2, total: 2, done: true });
    expect(new Set((await b.rows(0, 12_001)).map((row) => row.id)).size).toBe(12_001);
  });

  it("a fleet larger than one large page: the snapshot brings every asset whole, details included, and no page follows (README 'Spec decisions')", async () => {
    const identified = {
      external_identifiers: [{ identifier_id: 'S-9', system_name: 'samsara' }],
      active_closures: [{ id: 'closure-9', wzdx_id: 'WZ-9' }],
      organization_relationships: [{ organization_uuid: 'org-tow', organization_name: 'Tow Co', relationship_type: 'accessor' as const }],
      vin_number: 'VIN-12000',
    };
    api.setThings(Array.from({ length: 12_001 }, (_, i) => thing(i, i === 12_000 ? identified : i % 3 === 0 ? { enroute: true } : {})));
    // Held until the first page was read: what changed since reaches the fleet through the snapshot.
    const release = holdCalls((url) => url.pathname === '/organization/things/snapshot');
    const b = await startBridge();
    await until(() => b.store.listLength === THINGS_PAGE_SIZE, 'the first small page listed');
    api.setThings([thing(7, { in_service: false, nickname: 'Renamed 7' })]);
    release();
    await until(() => b.store.phase === 'live' && b.store.total === 12_001, 'the load');
    expect(b.store.progress).toMatchObject({ loaded: 2, total: 2, done: true });
    const pages = api.callsTo('/organization/things').filter((url) => !url.searchParams.has('last_updated_timestamp'));
    expect(pages.map((url) => `${url.searchParams.get('page')}×${url.searchParams.get('per_page')}`)).toEqual([`1×${THINGS_PAGE_SIZE}`]);
    expect(api.callsTo('/organization/things/snapshot')).toHaveLength(1);
    const rows = await b.rows(0, 12_001);
    expect(rows.filter((row) => row.detailsPending)).toEqual([]);
    expect(await b.asset('thing-12000')).toMatchObject({
      vinNumber: 'VIN-12000',
      externalIdentifiers: [{ identifierId: 'S-9', systemName: 'samsara' }],
      activeClosures: [{ id: 'closure-9', wzdxId: 'WZ-9' }],
      organizationRelationships: [{ organizationUuid: 'org-tow', organizationName: 'Tow Co', relationshipType: 'accessor' }],
    });
    // A first-page asset as the snapshot has it, not as the first page did.
    expect(await b.asset('thing-00007')).toMatchObject({ inService: false, primaryDisplayName: 'Renamed 7' });
    expect(b.store.counts[ASSET_STATUS.active]).toBe(Math.ceil(12_001 / 3));
  });

  it('a snapshot without details (another server version) puts every asset on the map and in the list; the pages then bring each full wire', async () => {
    api.snapshotDetails = false;
    const identified = { external_identifiers: [{ identifier_id: 'S-9', system_name: 'samsara' }], vin_number: 'VIN-12000' };
    api.setThings(
      Array.from({ length: 12_001 }, (_, i) =>
        thing(i, i === 12_000 ? { ...identified, enroute: true } : i % 3 === 0 ? { enroute: true } : {}),
      ),
    );
    api.setThings([thing(7, { in_service: false }), thing(11_000, { nickname: null, street: 'Lamar Blvd', station_id: null })]);
    const release = holdCalls((url) => url.searchParams.get('per_page') === String(THINGS_PAGE_MAX));
    const b = await startBridge();
    await until(() => b.store.total === 12_001, 'every asset from the snapshot');
    expect(b.store.phase).toBe('loading');
    expect(b.store.progress).toMatchObject({ loaded: 2, total: 5 });
    expect(api.callsTo('/organization/things/snapshot')).toHaveLength(1);
    // Held: every asset's place, status and name, as the full wires will say.
    const partial = await b.rows(0, 12_001);
    expect(partial).toHaveLength(12_001);
    const enroute = Math.ceil(12_001 / 3);
    expect(b.store.counts[ASSET_STATUS.active]).toBe(enroute);
    const last = partial.find((row) => row.id === 'thing-12000')!;
    expect(last).toMatchObject({
      vinNumber: 'VIN-12000',
      primaryDisplayName: 'Unit 12000',
      position: { lat: thing(12_000).lat, lng: thing(12_000).lng },
    });
    expect(last.externalIdentifiers).toEqual([]);
    expect(last.detailsPending).toBe(true);
    // The first page's assets came with their full wires.
    expect(partial.find((row) => row.id === 'thing-00000')?.detailsPending).toBeUndefined();
    expect(partial.find((row) => row.id === 'thing-11000')).toMatchObject({ primaryDisplayName: 'HA-11000', street: 'Lamar Blvd' });
    expect(partial.find((row) => row.id === 'thing-00007')?.inService).toBe(false);
    // The first page's full wires are not replaced by the snapshot's narrower ones.
    const counts = [...b.store.counts];
    release();
    await until(() => b.store.phase === 'live', 'the load');
    expect(b.store.progress).toMatchObject({ loaded: 5, total: 5, done: true });
    expect((await b.asset('thing-12000'))?.externalIdentifiers).toEqual([{ identifierId: 'S-9', systemName: 'samsara' }]);
    expect((await b.rows(0, 12_001)).filter((row) => row.detailsPending)).toEqual([]);
    expect(b.store.total).toBe(12_001);
    expect([...b.store.counts]).toEqual(counts);
  });

  it('a large fleet is read after the socket opened with the load is subscribed: its messages apply during the load, and no incremental load of the fleet follows', async () => {
    // The server's rows checked in 5 s ago; the socket's messages are of now.
    api.setThings(Array.from({ length: 12_001 }, (_, i) => thing(i, { heartbeat_datetime: iso(NOW - 5_000) })));
    const releaseSnapshot = holdCalls((url) => url.pathname === '/organization/things/snapshot');
    const b = await startBridge();
    // Subscribed while the first load runs (the snapshot is held).
    await until(() => b.store.connectivity.socket === 'subscribed' && b.store.total === THINGS_PAGE_SIZE, 'subscribed with the first page');
    expect(b.store.phase).toBe('loading');
    // A point about an asset of the first page moves it before the load ends; an incident joined by
    // an asset not held yet is kept until its asset comes.
    cable.send({ type: 'point', thing_id: 'thing-00003', lat: 30.61, lng: -97.61, accuracy: 3, timestamp: iso(Date.now()) });
    cable.send({
      type: 'location',
      thing_id: 'thing-09000',
      location_id: 'loc-9',
      timestamp: iso(Date.now()),
      location: { id: 'loc-9', is_active: true, lat: 30.2, lng: -97.7, start_time: iso(Date.now()) },
    });
    await untilAsync(async () => (await b.asset('thing-00003'))?.position.lat === 30.61, 'the point applied during the load', 3000);
    expect(b.store.phase).toBe('loading');
    releaseSnapshot();
    await until(() => b.store.phase === 'live' && b.store.total === 12_001, 'the load');
    await until(() => api.callsTo('/locations').length === 2, 'the events asked again');
    expect(api.callsTo('/locations')[1]?.searchParams.get('last_updated_timestamp')).not.toBeNull();
    await sleep(200);
    expect(api.callsTo('/organization/things').filter((url) => url.searchParams.has('last_updated_timestamp'))).toEqual([]);
    // The pages read the asset off any incident (the server had not stored its row yet); it stays on it.
    expect(await b.asset('thing-09000')).toMatchObject({ isOnIncident: true, locationId: 'loc-9' });
    expect(await b.asset('thing-00003')).toMatchObject({ position: { lat: 30.61, lng: -97.61 } });
    expect(cable.connections).toHaveLength(1);
  });

  it('a subscription that comes later than SUBSCRIBE_WAIT_MS: the large fleet is read on, and an incremental load follows the subscription', async () => {
    api.setThings(Array.from({ length: 12_001 }, (_, i) => thing(i)));
    let confirm!: () => void;
    cable.confirmAfter = new Promise<void>((resolve) => (confirm = resolve));
    const b = await startBridge();
    await until(() => b.store.phase === 'live' && b.store.total === 12_001, 'the load', SUBSCRIBE_WAIT_MS + 5_000);
    expect(b.store.connectivity.socket).not.toBe('subscribed');
    expect(api.callsTo('/organization/things').filter((url) => url.searchParams.has('last_updated_timestamp'))).toEqual([]);
    confirm();
    const incremental = await until(
      () => api.callsTo('/organization/things').find((url) => url.searchParams.has('last_updated_timestamp')),
      'the incremental load after the subscription',
    );
    expect(incremental.searchParams.get('page')).toBe('1');
  });

  it('without the snapshot (a server that answers 404) the pages bring the fleet, and it is not asked again this session', async () => {
    api.snapshot = false;
    api.setThings(Array.from({ length: 5_001 }, (_, i) => thing(i)));
    const b = await startBridge();
    await until(() => b.store.phase === 'live' && b.store.total === 5_001, 'the load');
    expect(b.store.progress).toMatchObject({ loaded: 3, total: 3, done: true });
    expect(api.callsTo('/organization/things/snapshot')).toHaveLength(1);
    // A snapshot that fails otherwise (a 500, an answer that does not read) is passed over the same way.
    await b.dispose();
    api.snapshot = true;
    const answer = api.fetch;
    globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      if (new URL(String(input)).pathname === '/organization/things/snapshot') {
        return new Response(
          '{"columns":["id"],"rows":[],"organizations":[],"meta":{"total":0,"server_timestamp":"2026-11-22T12:00:00.000Z"}}',
          {
            status: 200,
            headers: { 'content-type': 'application/json' },
          },
        );
      }
      return answer(input, init);
    }) as typeof fetch;
    const c = await startBridge();
    await until(() => c.store.phase === 'live' && c.store.total === 5_001, 'the load without a readable snapshot');
    expect(c.store.connectivity.error).toBeNull();
    expect(c.store.progress).toMatchObject({ loaded: 3, total: 3, done: true });
  });

  it('after the first page, THINGS_PAGES_IN_FLIGHT pages at a time, each applied as it comes; a failed page stops the rest', async () => {
    api.setThings(Array.from({ length: 10 }, (_, i) => thing(i)));
    const answer = api.fetch;
    let inFlight = 0;
    let most = 0;
    let failPage: string | null = null;
    globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(String(input));
      if (url.pathname !== '/organization/things' || url.searchParams.has('last_updated_timestamp')) return answer(input, init);
      inFlight += 1;
      most = Math.max(most, inFlight);
      // Later pages answer before earlier ones: page 2 is the slowest.
      await sleep(url.searchParams.get('page') === '2' ? 60 : 10);
      inFlight -= 1;
      if (url.searchParams.get('page') === failPage) return new Response('{"error":"boom","message":"Boom"}', { status: 500 });
      return answer(input, init);
    }) as typeof fetch;
    const b = await startBridge({ thingsPageSize: 2 });
    await until(() => b.store.phase === 'live' && b.store.total === 10, 'the load');
    expect(b.store.progress).toMatchObject({ loaded: 5, total: 5, done: true });
    expect(most).toBe(THINGS_PAGES_IN_FLIGHT);
    const pages = api.callsTo('/organization/things').map((url) => url.searchParams.get('page'));
    expect(pages.slice(0, 5).sort()).toEqual(['1', '2', '3', '4', '5']);
    // Page 2 came last, yet every asset is listed once.
    expect(pages.slice(0, 5)).not.toEqual(['1', '2', '3', '4', '5']);
    expect(new Set((await b.rows(0, 10)).map((row) => row.id)).size).toBe(10);

    // Another load, where page 3 always fails: page 2 (asked with it) is not applied, and no page
    // after them is ever asked, by this load or by the loads that try again.
    await b.dispose();
    failPage = '3';
    const asked: number[] = [];
    const counting = globalThis.fetch;
    globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(String(input));
      if (url.pathname === '/organization/things') asked.push(Number(url.searchParams.get('page')));
      return counting(input, init);
    }) as typeof fetch;
    api.setThings(Array.from({ length: 12 }, (_, i) => thing(i)));
    const c = await startBridge({ thingsPageSize: 2 });
    await until(() => c.store.connectivity.error !== null, 'the failed load');
    expect(c.store.connectivity.error).toBe('/organization/things answered 500');
    await sleep(200);
    expect(asked.slice(0, 3).sort()).toEqual([1, 2, 3]);
    expect(Math.max(...asked)).toBe(3);
    // Page 1 applied; page 2 answered after 3 failed and was dropped.
    expect(c.store.progress).toMatchObject({ loaded: 1, total: 6 });
  });

  it("asks the stations, the events and the fleet's first page at once; the events show while the stations are on their way, the fleet is applied after both", async () => {
    api.setThings([thing(1)]);
    api.setLocation({ id: 'loc-1', is_active: true, lat: 30.2, lng: -97.7, street: 'Lamar Blvd', start_time: iso(NOW - 60_000) });
    const release = holdCalls((url) => url.pathname === '/organization/exclusion_zone');
    const b = await startBridge();
    await until(() => b.store.events.active === 1, 'the events while the stations are held');
    await until(() => api.callsTo('/organization/things').length === 1, 'the first page asked while the stations are held');
    // Answered, but not applied: its assets' station check needs the stations.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(b.store.total).toBe(0);
    expect(b.store.phase).toBe('loading');
    release();
    await until(() => b.store.phase === 'live' && b.store.total === 1, 'the load');
  });

  it('the Events panel does not wait for the fleet: the events come before the things pages, closures after them', async () => {
    api.setThings(Array.from({ length: 1200 }, (_, i) => thing(i)));
    api.setLocation({ id: 'loc-1', is_active: true, lat: 30.2, lng: -97.7, street: 'Lamar Blvd', start_time: iso(NOW - 60_000) });
    // The server holds the things pages until the test lets them go.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const answer = api.fetch;
    globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      if (new URL(String(input)).pathname === '/organization/things') await held;
      return answer(input, init);
    }) as typeof fetch;
    const b = await startBridge();
    await until(() => b.store.events.active === 1, 'the events while the fleet loads');
    expect(b.store.phase).toBe('loading');
    expect(b.store.total).toBe(0);
    expect((await b.events()).events.map((e) => e.id)).toEqual(['loc-1']);
    release();
    await until(() => b.store.phase === 'live' && b.store.total === 1200, 'the load');
    const paths = api.calls.map((url) => new URL(url).pathname);
    const lastPage = paths.lastIndexOf('/organization/things');
    expect(paths.indexOf('/locations')).toBeLessThan(paths.indexOf('/organization/things'));
    expect(paths.indexOf('/organization/closure')).toBeGreaterThan(paths.indexOf('/organization/things'));
    expect(lastPage).toBeGreaterThan(0);
  });

  it('part1 §6: a user who may read only the events (a Media user) asks no list the server would refuse, and polls none of them', async () => {
    useFakeClock();
    api.setThings([thing(1)]);
    api.setLocation({ id: 'loc-1', is_active: true, lat: 30.2, lng: -97.7, street: 'Lamar Blvd', start_time: iso(NOW - 60_000) });
    const b = await startBridge({ largeOrg: true, reads: { things: false, areas: false, events: true, closures: false } });
    await vi.advanceTimersByTimeAsync(SECOND_MS);
    await until(() => b.store.phase === 'live' && b.store.events.active === 1, 'the events');
    // Two polls later (a large organization polls every 15 s): still no list the user may not read.
    await vi.advanceTimersByTimeAsync(2 * POLL_INTERVAL_MS + SECOND_MS);
    const paths = new Set(api.calls.map((url) => new URL(url).pathname));
    expect(paths.has('/locations')).toBe(true);
    expect(api.callsTo('/locations').length).toBeGreaterThanOrEqual(3);
    for (const refused of [
      '/organization/things',
      '/organization/things/snapshot',
      '/organization/exclusion_zone',
      '/organization/closure',
    ]) {
      expect(paths.has(refused), refused).toBe(false);
    }
    expect(b.store.total).toBe(0);
  });

  it('an empty organization still loads one page (page count minimum 1)', async () => {
    const b = await startBridge();
    await until(() => b.store.phase === 'live', 'the load');
    expect(api.callsTo('/organization/things').filter((url) => !url.searchParams.has('last_updated_timestamp'))).toHaveLength(1);
    expect(b.store.progress).toMatchObject({ loaded: 1, total: 1 });
  });

  it('incremental loads apply changes and tombstones', async () => {
    api.setThings([thing(1), thing(2), thing(3)], NOW - 60_000);
    const b = await startBridge();
    await until(() => b.store.total === 3, 'the load');
    await until(() => b.store.connectivity.socket === 'subscribed', 'subscribed');
    api.deleteThing('thing-00002');
    api.setThings([thing(4)]);
    await b.refresh();
    await until(
      () => b.store.total === 3 && api.callsTo('/organization/things').some((u) => u.searchParams.has('last_updated_timestamp')),
      'the incremental load',
    );
    const rows = await b.rows(0, 10);
    expect(rows.map((row) => row.id).sort()).toEqual(['thing-00001', 'thing-00003', 'thing-00004']);
  });
});

describe('part1 §4 batching and the effect of each message (through the socket)', () => {
  it('messages are processed once per batch: one diff a second later carries them all', async () => {
    api.setThings([thing(1), thing(2)]);
    const b = await startBridge();
    await until(() => b.store.connectivity.socket === 'subscribed' && b.store.total === 2, 'subscribed');
    await sleep(50);
    const version = b.store.version;
    const sentAt = performance.now();
    // One batch frame of two messages (LIVE_BATCH_PROTOCOL), as the server sends a turn's messages.
    cable.send(
      { type: 'point', thing_id: 'thing-00001', lat: 30.5, lng: -97.5, accuracy: 5, course: 45, timestamp: iso(Date.now()) },
      { type: 'heartbeat', thing_id: 'thing-00002', is_active: true, timestamp: iso(Date.now()) },
    );
    await sleep(SOCKET_BATCH_MS / 2);
    expect(b.store.version).toBe(version);
    await until(() => b.store.version > version, 'the batch', 3000);
    expect(performance.now() - sentAt).toBeGreaterThanOrEqual(SOCKET_BATCH_MS - 50);
    expect(b.store.version).toBe(version + 1);
    const slot1 = await slotFor(b, 'thing-00001');
    expect([b.store.buffers.lngLat[2 * slot1], b.store.buffers.lngLat[2 * slot1 + 1]]).toEqual([-97.5, 30.5]);
    expect(b.store.buffers.heading[slot1]).toBe(45);
    expect(b.store.counts[ASSET_STATUS.active]).toBe(1);
    // the list: active before standby
    expect((await b.rows(0, 2)).map((row) => row.id)).toEqual(['thing-00002', 'thing-00001']);
  });

  it.each([
    [
      'location on an incident',
      {
        type: 'location',
        thing_id: 'thing-00001',
        location_id: 'loc-1',
        timestamp: iso(NOW),
        location: { id: 'loc-1', is_active: true, lat: 30.2, lng: -97.7, start_time: iso(NOW) },
      },
      ASSET_STATUS.location,
    ],
    [
      'closure active',
      { type: 'closure', thing_id: 'thing-00001', closure_id: 'cl-1', is_active: true, timestamp: iso(NOW) },
      ASSET_STATUS.active,
    ],
    ['thing out of service', { type: 'thing', thing: thing(1, { in_service: false }) }, ASSET_STATUS.oos],
    ['heartbeat active', { type: 'heartbeat', thing_id: 'thing-00001', is_active: true, timestamp: iso(NOW) }, ASSET_STATUS.active],
  ] as const)('%s reaches the store as a status change', async (_name, message, status) => {
    api.setThings([thing(1)]);
    const b = await startBridge();
    await until(() => b.store.connectivity.socket === 'subscribed' && b.store.total === 1, 'subscribed');
    cable.send(message);
    await until(() => b.store.counts[status] === 1, `status ${status}`, 3000);
    const slot = await slotFor(b, 'thing-00001');
    expect(b.store.buffers.status[slot]).toBe(status);
  });

  it('a location message updates the events cache; the events query filters it', async () => {
    api.setThings([thing(1)]);
    const b = await startBridge();
    await until(() => b.store.connectivity.socket === 'subscribed', 'subscribed');
    cable.send({
      type: 'location',
      thing_id: 'thing-00001',
      location_id: 'loc-7',
      timestamp: iso(Date.now()),
      location: { id: 'loc-7', is_active: true, lat: 30.2, lng: -97.7, street: 'Lamar Blvd', start_time: iso(Date.now()) },
    });
    await until(() => b.store.events.active === 1, 'the event');
    expect((await b.events()).events.map((e) => e.id)).toEqual(['loc-7']);
    expect((await b.setEventsQuery({ search: 'congress' })).events).toEqual([]);
    expect((await b.setEventsQuery({ search: 'lamar' })).events.map((e) => e.street)).toEqual(['Lamar Blvd']);
  });
});

describe('part2 §4 closures in the worker', () => {
  it('load incrementally, and a closure message sets the closure and its asset active', async () => {
    const closure = (id: string) => ({
      id,
      closure_type: 'automated' as const,
      is_active: false,
      description: `Closure ${id}`,
      thing: { id: 'thing-00001', haas_id: 'ha-00001', heartbeat_datetime: iso(NOW) },
    });
    api.setThings([thing(1)]);
    api.setClosure(closure('cl-1'), Date.now() - 60_000);
    const b = await startBridge();
    await until(() => b.store.connectivity.socket === 'subscribed' && b.store.closuresVersion > 0, 'subscribed with closures');
    expect((await b.closures()).map((c) => [c.id, c.isActive, c.status])).toEqual([['cl-1', false, 'standby']]);
    cable.send({ type: 'closure', thing_id: 'thing-00001', closure_id: 'cl-1', is_active: true, timestamp: iso(Date.now()) });
    await until(() => b.store.counts[ASSET_STATUS.active] === 1, 'the asset active');
    expect((await b.closures()).map((c) => [c.id, c.isActive, c.status])).toEqual([['cl-1', true, 'active']]);
    api.setClosure(closure('cl-2'));
    await b.refresh();
    expect((await b.closures()).map((c) => c.id).sort()).toEqual(['cl-1', 'cl-2']);
    expect(api.callsTo('/organization/closure').at(-1)?.searchParams.get('last_updated_timestamp')).not.toBeNull();
  });
});

describe('part1 §4 staleness and status windows on one clock (fake timers)', () => {
  it('an asset turns stale at exactly 30 s and pending at 8 h with no message', async () => {
    useFakeClock();
    api.setThings([thing(1)]);
    const b = await startBridge({ largeOrg: true });
    await until(() => b.store.total === 1 && b.store.phase === 'live', 'the load');
    const slot = await slotFor(b, 'thing-00001');
    expect(b.store.buffers.flags[slot]! & FLAG_STALE).toBe(0);
    await vi.advanceTimersByTimeAsync(STALE_AFTER_MS - 1);
    await sleep(20);
    expect(b.store.buffers.flags[slot]! & FLAG_STALE).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => (b.store.buffers.flags[slot]! & FLAG_STALE) !== 0, 'stale');
    expect(Date.now()).toBe(NOW + STALE_AFTER_MS);
    await vi.advanceTimersByTimeAsync(8 * HOUR_MS - STALE_AFTER_MS);
    await until(() => b.store.counts[ASSET_STATUS.pending] === 1, 'pending');
  });

  it('a fleet going stale asset by asset sends at most one diff a second (the batch cadence), not one per deadline', async () => {
    useFakeClock();
    // 20 assets whose heartbeats are 50 ms apart: their stale deadlines fall within one second.
    api.setThings(Array.from({ length: 20 }, (_, k) => thing(k + 1, { heartbeat_datetime: iso(NOW + k * 50) })));
    const b = await startBridge({ largeOrg: true });
    await until(() => b.store.total === 20 && b.store.phase === 'live', 'the load');
    const staleCount = () => Array.from(b.store.order).filter((slot) => (b.store.buffers.flags[slot]! & FLAG_STALE) !== 0).length;
    let diffs = 0;
    const off = subscribeKey(b.store, 'version', () => (diffs += 1));
    await vi.advanceTimersByTimeAsync(STALE_AFTER_MS);
    await until(() => staleCount() === 1, 'the first stale asset');
    expect(diffs).toBe(1);
    // The other 19 deadlines pass within the next second: one batch at its end shows them all.
    await vi.advanceTimersByTimeAsync(SOCKET_BATCH_MS - 1);
    await sleep(20);
    expect(staleCount()).toBe(1);
    expect(diffs).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => staleCount() === 20, 'all stale');
    expect(diffs).toBe(2);
    off();
  });
});

describe('part1 §4 station check in the worker', () => {
  it('an asset inside a station area is grouped there; the group view answers a station group', async () => {
    api.areas = [stationArea('st-1', 30.2, -97.7)];
    api.setThings([thing(1, { lat: 30.2, lng: -97.7 }), thing(2, { lat: 30.2003, lng: -97.7 }), thing(3, { lat: 30.3, lng: -97.7 })]);
    const b = await startBridge();
    await until(() => b.store.total === 3 && b.store.stations === 1, 'the load');
    expect((await b.asset('thing-00001'))?.stationId).toBe('st-1');
    const slot = await slotFor(b, 'thing-00003');
    expect(b.store.buffers.flags[slot]! & FLAG_AT_STATION).toBe(0);
    const answer = await b.clusters([-180, -85, 180, 85], 10);
    expect(answer.stations.ids).toEqual(['st-1']);
    expect(Array.from(answer.stations.count)).toEqual([2]);
    expect(Array.from(answer.count)).toEqual([1]);
    expect(answer.slot[0]).toBe(slot);
    expect(answer.version).toBe(b.store.clusterVersion);
  });
});

describe('part1 §4 reconnects and the dead socket (fake timers)', () => {
  it('reconnects after min(1000 × 2^n, 10000) ms, at most 10 times, then polls', async () => {
    useFakeClock();
    const b = await startBridge();
    await until(() => b.store.connectivity.socket === 'subscribed', 'subscribed');
    cable.refuse = true;
    const before = cable.attempts.length;
    cable.dropAll();
    for (let n = 0; n < SOCKET_RECONNECT_ATTEMPTS; n += 1) {
      await until(
        () => b.store.connectivity.socket === 'waiting' && b.store.connectivity.socketAttempt === n + 1,
        `waiting for attempt ${n + 1}`,
      );
      await vi.advanceTimersByTimeAsync(reconnectDelay(n) - 1);
      await sleep(30);
      expect(cable.attempts.length).toBe(before + n);
      await vi.advanceTimersByTimeAsync(1);
      await until(() => cable.attempts.length === before + n + 1, `attempt ${n + 1}`);
    }
    expect([0, 1, 2, 3, 4, 5].map(reconnectDelay)).toEqual([1000, 2000, 4000, 8000, 10000, 10000]);
    await until(() => b.store.connectivity.socket === 'failed', 'failed');
    await vi.advanceTimersByTimeAsync(60_000);
    await sleep(30);
    expect(cable.attempts.length).toBe(before + SOCKET_RECONNECT_ATTEMPTS);
    expect(b.store.connectivity.polling).toBe(true);
  });

  it('no ping for 10 s counts as a dead socket; pings keep it alive', async () => {
    useFakeClock();
    const b = await startBridge();
    await until(() => b.store.connectivity.socket === 'subscribed', 'subscribed');
    await vi.advanceTimersByTimeAsync(SOCKET_DEAD_AFTER_MS - 2 * SECOND_MS);
    cable.ping();
    await sleep(30);
    await vi.advanceTimersByTimeAsync(SOCKET_DEAD_AFTER_MS - 1);
    await sleep(30);
    expect(b.store.connectivity.socket).toBe('subscribed');
    await vi.advanceTimersByTimeAsync(1);
    await until(() => b.store.connectivity.socket === 'waiting', 'the socket declared dead');
    await vi.advanceTimersByTimeAsync(reconnectDelay(0));
    await until(() => b.store.connectivity.socket === 'subscribed', 'reconnected');
    expect(cable.connections).toHaveLength(2);
  });
});

describe('part1 §4 polling', () => {
  it('a large organization polls every 15 s instead of opening the socket', async () => {
    useFakeClock();
    api.setThings([thing(1)]);
    const b = await startBridge({ largeOrg: true });
    await until(() => b.store.phase === 'live' && b.store.connectivity.polling, 'polling');
    // Each poll is one call: the fleet snapshot since the last load (FleetLoad.poll).
    const calls = () => api.callsTo('/organization/things').length + api.callsTo('/organization/things/snapshot').length;
    const first = calls();
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS - 1);
    await sleep(30);
    expect(calls()).toBe(first);
    api.setThings([thing(1, { enroute: true, heartbeat_datetime: iso(Date.now()) })], Date.now());
    await vi.advanceTimersByTimeAsync(1);
    await until(() => calls() === first + 1, 'a poll');
    await until(() => b.store.counts[ASSET_STATUS.active] === 1, 'the polled change');
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    await until(() => calls() === first + 2, 'the next poll');
    expect(cable.attempts).toHaveLength(0);
    expect(b.store.connectivity.socket).toBe('off');
  });

  it('a poll that brought nothing is asked again the same (an unchanged list can answer 304); one that brought a change moves on', async () => {
    useFakeClock();
    api.setThings([thing(1)]);
    const b = await startBridge({ largeOrg: true });
    await until(() => b.store.phase === 'live' && b.store.connectivity.polling, 'polling');
    const polls = () =>
      api
        .callsTo('/organization/things/snapshot')
        .map((url) => url.searchParams.get('since'))
        .filter((since) => since !== null);
    const poll = async (count: number) => {
      await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
      await until(() => polls().length === count, `poll ${count}`);
      await sleep(30);
    };
    const before = polls().length;
    await poll(before + 1);
    await poll(before + 2);
    const [quiet, again] = polls().slice(before);
    expect(again).toBe(quiet);
    api.setThings([thing(1, { enroute: true, heartbeat_datetime: iso(Date.now()) })], Date.now());
    await poll(before + 3);
    await until(() => b.store.counts[ASSET_STATUS.active] === 1, 'the polled change');
    await poll(before + 4);
    const [changed, next] = polls().slice(before + 2);
    expect(changed).toBe(quiet);
    expect(Date.parse(next!)).toBeGreaterThan(Date.parse(quiet!));
  });

  it("a poll reads the fleet snapshot since the last load (docs/decisions/spec.md): the fleet ends as the list's pages bring it", async () => {
    /** A large organization's fleet of 30, then moves, a rename, a new asset and a removal, polled once. */
    const fleetAfterPoll = async (snapshotSince: boolean) => {
      api = new FakeApi();
      api.snapshotSince = snapshotSince;
      globalThis.fetch = api.fetch as typeof fetch;
      api.setThings(Array.from({ length: 30 }, (_, i) => thing(i + 1)));
      const b = await startBridge({ largeOrg: true });
      await until(() => b.store.phase === 'live' && b.store.connectivity.polling && b.store.total === 30, 'the load');
      api.setThings([
        thing(3, { lat: 30.31, lng: -97.71, enroute: true, heartbeat_datetime: iso(NOW - 1_000) }),
        thing(4, { nickname: 'Renamed', in_service: false }),
        thing(7, { lat: 30.2, lng: -97.6, speed: 40, course: 90 }),
        thing(31),
      ]);
      api.deleteThing('thing-00005');
      await b.refresh();
      const rows = await untilAsync(async () => {
        const listed = await b.rows(0, b.store.listLength);
        const ids = listed.map((row) => row.id);
        return ids.includes('thing-00031') && !ids.includes('thing-00005') ? listed : undefined;
      }, 'the polled changes');
      const counts = { ...b.store.counts };
      const calls = api.calls.map((url) => new URL(url)).filter((url) => url.pathname.startsWith('/organization/things'));
      await b.dispose();
      bridge = null;
      return { rows, counts, calls };
    };
    const compact = await fleetAfterPoll(true);
    // Compact: one call since the load, no page.
    const polled = compact.calls.filter((url) => url.searchParams.has('since') || url.searchParams.has('last_updated_timestamp'));
    expect(polled.map((url) => url.pathname)).toEqual(['/organization/things/snapshot']);
    expect(compact.rows.map((row) => row.id)).toContain('thing-00031');
    expect(compact.rows.map((row) => row.id)).not.toContain('thing-00005');
    expect(compact.rows.find((row) => row.id === 'thing-00004')?.primaryDisplayName).toBe('Renamed');
    // A server that reads no since (it answers the whole fleet, no deleted_ids): the pages, and the same fleet.
    const pages = await fleetAfterPoll(false);
    expect(pages.calls.filter((url) => url.searchParams.has('last_updated_timestamp')).map((url) => url.pathname)).toEqual([
      '/organization/things',
    ]);
    expect(pages.rows).toEqual(compact.rows);
    expect(pages.counts).toEqual(compact.counts);
  });

  it('a poll falls back to the pages when the server has no fleet snapshot (404), and does not ask it again this session', async () => {
    api.snapshot = false;
    api.setThings([thing(1), thing(2)]);
    const b = await startBridge({ largeOrg: true });
    await until(() => b.store.phase === 'live' && b.store.connectivity.polling && b.store.total === 2, 'the load');
    api.setThings([thing(2, { nickname: 'Polled' })]);
    await b.refresh();
    await untilAsync(async () => (await b.rows(0, 2)).some((row) => row.primaryDisplayName === 'Polled'), 'the change through the pages');
    expect(api.callsTo('/organization/things/snapshot').map((url) => url.searchParams.has('since'))).toEqual([true]);
    api.setThings([thing(1, { nickname: 'Again' })]);
    await b.refresh();
    await untilAsync(async () => (await b.rows(0, 2)).some((row) => row.primaryDisplayName === 'Again'), 'the next poll');
    expect(api.callsTo('/organization/things/snapshot')).toHaveLength(1);
    expect(api.callsTo('/organization/things').filter((url) => url.searchParams.has('last_updated_timestamp'))).toHaveLength(2);
    expect(b.store.connectivity.error).toBeNull();
  });

  it('part1 §9 query refresh: a session the socket carries still reads what changed every 30 minutes (a change no message brought)', async () => {
    useFakeClock();
    api.setThings([thing(1, { nickname: 'Before' })]);
    const b = await startBridge();
    await until(() => b.store.connectivity.socket === 'subscribed' && b.store.phase === 'live', 'live');
    const incremental = () => api.callsTo('/organization/things').filter((url) => url.searchParams.get('last_updated_timestamp')).length;
    await sleep(30);
    const before = incremental();
    api.setThings([thing(1, { nickname: 'Renamed' })]);
    // The socket lives on its pings; no poll runs meanwhile.
    const step = SOCKET_DEAD_AFTER_MS / 2;
    for (let spent = 0; spent + step < QUERY_REFRESH_MS; spent += step) {
      await vi.advanceTimersByTimeAsync(step);
      cable.ping();
      await sleep(2);
    }
    expect(b.store.connectivity.polling).toBe(false);
    expect(incremental()).toBe(before);
    await vi.advanceTimersByTimeAsync(QUERY_REFRESH_MS % step || step);
    await until(() => incremental() === before + 1, 'the 30-minute refresh');
    await untilAsync(async () => (await b.rows(0, 1))[0]?.primaryDisplayName === 'Renamed', 'the change listed');
  });

  it('polls while the socket is not live, and stops once it is again', async () => {
    useFakeClock();
    const b = await startBridge();
    await until(() => b.store.connectivity.socket === 'subscribed', 'subscribed');
    expect(b.store.connectivity.polling).toBe(false);
    cable.dropAll();
    await until(() => b.store.connectivity.polling, 'polling');
    await vi.advanceTimersByTimeAsync(reconnectDelay(0));
    await until(() => b.store.connectivity.socket === 'subscribed' && !b.store.connectivity.polling, 'live again');
  });
});

describe('part1 §4 organization switch, connectivity, focus, token and 401', () => {
  it('switching the organization resets everything and refetches, with a new subscription', async () => {
    api.setThings([thing(1), thing(2)]);
    const b = await startBridge();
    await until(() => b.store.connectivity.socket === 'subscribed' && b.store.total === 2, 'subscribed');
    await b.select('thing-00001');
    api.things.clear();
    api.setThings([thing(7, { organization: { id: OTHER_ORG, name: 'Other' } })]);
    const thingsCalls = api.callsTo('/organization/things').length;
    await b.switchOrganization({ organizationId: OTHER_ORG, orgIds: [OTHER_ORG] });
    await until(() => b.store.organizationId === OTHER_ORG && b.store.total === 1 && b.store.phase === 'live', 'the new organization');
    const full = api.callsTo('/organization/things').slice(thingsCalls)[0]!;
    expect(full.searchParams.get('last_updated_timestamp')).toBeNull();
    expect(full.searchParams.getAll('org_ids[]')).toEqual([OTHER_ORG]);
    expect((await b.rows(0, 5)).map((row) => row.id)).toEqual(['thing-00007']);
    expect(b.store.selection.id).toBeNull();
    const connection = await until(
      () => cable.subscribed.find((c) => c.subscriptions[0] === eventsChannelIdentifier(OTHER_ORG)),
      'the new subscription',
    );
    expect(connection).toBeDefined();
    await until(() => cable.subscribed.every((c) => c.subscriptions[0] === eventsChannelIdentifier(OTHER_ORG)), 'the old socket closed');
  });

  it('offline closes the socket and stops polling; online reconnects and fetches what changed', async () => {
    const b = await startBridge();
    await until(() => b.store.connectivity.socket === 'subscribed', 'subscribed');
    await b.engine.setConnectivity(false);
    await until(() => b.store.connectivity.socket === 'off' && !b.store.connectivity.online, 'offline');
    expect(b.store.connectivity.polling).toBe(false);
    const calls = api.calls.length;
    await b.engine.setConnectivity(true);
    await until(() => b.store.connectivity.socket === 'subscribed', 'online again');
    expect(api.calls.length).toBeGreaterThan(calls);
    await b.engine.setFocus(false);
    await until(() => !b.store.connectivity.focused, 'focus reported');
  });

  it('uses each refreshed token, and reports a 401 once so the app signs out', async () => {
    const b = await startBridge({ largeOrg: true });
    await until(() => b.store.phase === 'live', 'the load');
    await b.setToken('token-refreshed');
    await b.refresh();
    expect(api.tokens.at(-1)).toBe('token-refreshed');
    api.unauthorized = true;
    await b.refresh();
    await until(() => b.store.connectivity.unauthorized, 'unauthorized');
    expect(unauthorized).toBe(1);
    expect(b.store.connectivity.polling).toBe(false);
  });
});

describe('part1 §4 filters, sort and details on request', () => {
  it('filters and sorts in the worker; the list and counts follow', async () => {
    api.setThings([
      thing(1, { nickname: 'Zulu', enroute: true }),
      thing(2, { nickname: 'Alpha' }),
      thing(3, { nickname: 'Mike', heartbeat_datetime: iso(NOW - 200 * HOUR_MS) }),
      thing(4, { nickname: 'Bravo', in_service: false }),
    ]);
    const b = await startBridge();
    await until(() => b.store.total === 4, 'the load');
    expect((await b.rows(0, 10)).map((row) => row.primaryDisplayName)).toEqual(['Zulu', 'Alpha', 'Bravo', 'Mike']);
    await b.setPreferences({ showOffline: false });
    await until(() => b.store.listLength === 3, 'offline hidden');
    expect(b.store.filters.statuses).not.toContain(ASSET_STATUS.offline);
    // part 1 §4: out of service is a status of its own, in view by default; unticked, it leaves.
    await b.setFilters({ outOfService: false });
    await until(() => b.store.listLength === 2, 'out of service left out');
    expect((await b.rows(0, 10)).map((row) => row.primaryDisplayName)).toEqual(['Zulu', 'Alpha']);
    // 'Out of service' adds: with no status chosen, only the out-of-service asset.
    await b.setFilters({ statuses: [], outOfService: true });
    await until(() => b.store.listLength === 1, 'out of service alone');
    expect((await b.rows(0, 10)).map((row) => row.primaryDisplayName)).toEqual(['Bravo']);
    await b.setFilters({ statuses: defaultStatusFilter(false), outOfService: false, search: 'ALPHA' });
    await until(() => b.store.listLength === 1 && b.store.listCounts[ASSET_STATUS.standby] === 1, 'search');
    expect(b.store.counts.reduce((a, c) => a + c, 0)).toBe(4);
    const slot = await slotFor(b, 'thing-00002');
    expect(b.store.buffers.flags[slot]! & FLAG_LISTED).toBe(FLAG_LISTED);
    const selected = await b.select('thing-00002');
    expect(selected?.primaryDisplayName).toBe('Alpha');
    expect(b.store.selection.asset?.id).toBe('thing-00002');
  });

  it("part1 §3 Owned / Managed: the organization and its children own, every other owner manages (an organization's or one asset shared alone)", async () => {
    const CHILD = 'org-child';
    api.organizations.set(ORG, { id: ORG, name: 'Org', child_structure: [{ id: CHILD, name: 'Org North', parent_id: ORG }] });
    api.setThings([
      thing(1, { nickname: 'Own' }),
      thing(2, { nickname: 'Child unit', organization: { id: CHILD, name: 'Org North' } }),
      thing(3, { nickname: 'Managed unit', organization: { id: OTHER_ORG, name: 'Other' } }),
      // Shared one by one: its owner is no organization the profile lists.
      thing(4, { nickname: 'Lent unit', organization: { id: 'org-lender', name: 'Lender' } }),
    ]);
    const b = await startBridge();
    await until(() => b.store.total === 4, 'the load');
    await until(() => b.store.ownership.owned === 2, 'the children counted as owned');
    expect(b.store.ownership).toEqual({ owned: 2, managed: 2, relations: true });
    await b.setFilters({ ownership: 'owned' });
    await until(() => b.store.listLength === 2, 'owned only');
    expect((await b.rows(0, 10)).map((row) => row.primaryDisplayName).sort()).toEqual(['Child unit', 'Own']);
    await b.setFilters({ ownership: 'managed' });
    await until(() => b.store.listLength === 2, 'managed only');
    expect((await b.rows(0, 10)).map((row) => row.primaryDisplayName).sort()).toEqual(['Lent unit', 'Managed unit']);
    await b.setFilters({ ownership: null });
    await until(() => b.store.listLength === 4, 'both');
  });

  it('part1 §3: an organization whose assets are all its own and unshared has no relations; one shared asset makes them', async () => {
    api.setThings([thing(1, { nickname: 'Own' }), thing(2, { nickname: 'Also own' })]);
    const b = await startBridge();
    await until(() => b.store.total === 2 && b.store.ownership.owned === 2, 'the load');
    expect(b.store.ownership).toEqual({ owned: 2, managed: 0, relations: false });
    // An incremental load brings one of them shared with another organization (the socket is live: a new subscription loads what changed).
    api.setThings([
      thing(2, {
        nickname: 'Also own',
        organization_relationships: [{ organization_uuid: OTHER_ORG, organization_name: 'Other', relationship_type: 'accessor' }],
      }),
    ]);
    await b.switchOrganization({ organizationId: ORG, orgIds: [] });
    await until(() => b.store.ownership.relations, 'relations after the share');
    expect(b.store.ownership).toEqual({ owned: 2, managed: 0, relations: true });
  });
});
