/**
 * WZDx feed subscriptions and their import (beyond the spec; docs/api/areas-closures-zones-trips.md
 * "WZDx feed subscriptions"): the official example feeds (tests/fixtures, copied from the U.S. DOT's
 * usdot-jpo-ode/wzdx examples) served by a local HTTP server on 127.0.0.1, imported as feed
 * closures (part 2 §2 Closures, §4 closure types), ended when gone, and nothing changed by a
 * broken feed; the calls' validation, scoping and permissions.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS, MINUTE_MS, SECOND_MS } from '../../src/domain/constants';
import { truncateCoordinate } from '../../src/domain/geometry';
import { wzdxFeedWireSchema } from '../../src/domain/wzdx-subscription';
import { readConfig } from '../../server/config';
import { fetchFeedText, isNonPublicAddress } from '../../server/wzdx/fetch-feed';
import { closures, wzdxFeeds } from '../../server/db/schema';
import { startJobRunner } from '../../server/jobs/runner';
import { importWzdxFeed } from '../../server/jobs/wzdx-import';
import { call, snapshot } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')) as Feed;
interface Feature {
  id: string;
  geometry: { type: string; coordinates: number[][] };
  properties: Record<string, unknown> & { core_details: Record<string, unknown> };
}
interface Feed {
  feed_info: Record<string, unknown>;
  features: Feature[];
}
const LINESTRING = fixture('ex_scenario1_simple_linestring_example.geojson');
const MULTIPOINT = fixture('ex_scenario1_simple_multipoint_example.geojson');
const DETOUR = fixture('ex_scenario4_detour_linestring_example.geojson');
const MAX_BYTES = 100_000;
const TIMEOUT_MS = 400;

// ── the outside feed: a local HTTP server whose answer each test sets ──
type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;
let handler: Handler = (_request, response) => response.writeHead(404).end();
let requests = 0;
const feedServer = http.createServer((request, response) => {
  requests += 1;
  handler(request, response);
});
let feedUrl = '';

const serveJson = (body: unknown): Handler => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return (_request, response) => response.writeHead(200, { 'content-type': 'application/geo+json' }).end(text);
};

let server: TestServer;
let orgA: { id: string };
let orgB: { id: string };
const token = { adminA: '', userA: '', adminB: '', mediaA: '' };

beforeAll(async () => {
  await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/feed.geojson`;
  server = await createTestServer({ env: { WZDX_FETCH_MAX_BYTES: String(MAX_BYTES), WZDX_FETCH_TIMEOUT_MS: String(TIMEOUT_MS) } });
  orgA = await server.createOrg({ name: 'Alpha County' });
  orgB = await server.createOrg({ name: 'Bravo City' });
  const users = {
    adminA: await server.createUser({ org: orgA, role: 'ADMIN' }),
    userA: await server.createUser({ org: orgA, role: 'USER' }),
    adminB: await server.createUser({ org: orgB, role: 'ADMIN' }),
    mediaA: await server.createUser({ org: orgA, role: 'USER (Incidents / Events only)' }),
  };
  for (const [key, user] of Object.entries(users)) token[key as keyof typeof token] = await server.signIn(user.email);
});
afterAll(async () => {
  feedServer.closeAllConnections();
  await new Promise((resolve) => feedServer.close(resolve));
  await server.close();
});
beforeEach(() => {
  handler = serveJson(current(LINESTRING));
});

/** The example feed with its work zones in effect now (the examples are dated 2010). */
function current(feed: Feed, without: string[] = []): Feed {
  const copy = structuredClone(feed);
  copy.features = copy.features
    .filter((feature) => !without.includes(feature.id))
    .map((feature) => ({
      ...feature,
      properties: {
        ...feature.properties,
        start_date: new Date(server.clock.ms - DAY_MS).toISOString(),
        end_date: new Date(server.clock.ms + 7 * DAY_MS).toISOString(),
      },
    }));
  return copy;
}

async function subscribe(tokenOf: string, body: Record<string, unknown> = {}) {
  const answer = await call(server, 'POST', '/organization/wzdx_feeds', tokenOf, { url: feedUrl, ...body });
  expect(answer.status, JSON.stringify(answer.json)).toBe(201);
  return wzdxFeedWireSchema.parse(answer.json);
}
const refresh = async (id: string, tokenOf = token.adminA) => {
  const answer = await call(server, 'POST', `/organization/wzdx_feeds/${id}/refresh`, tokenOf);
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return wzdxFeedWireSchema.parse(answer.json);
};
const feedClosures = (feedId: string) =>
  server.database.db
    .select()
    .from(closures)
    .where(and(eq(closures.wzdxFeedId, feedId), isNull(closures.deletedAt)))
    .orderBy(closures.externalId);
const closuresSnapshot = () => snapshot(server, closures, closures.id);
const ids = (feed: Feed) =>
  feed.features
    .filter((feature) => feature.properties.core_details.event_type === 'work-zone')
    .map((feature) => feature.id)
    .sort();
/** A feature's geometry as a closure path: [lng, lat] → {lat, lng}, 7 decimals. */
const pathOf = (feature: Feature) =>
  feature.geometry.coordinates.map(([lng = 0, lat = 0]) => ({ lat: truncateCoordinate(lat), lng: truncateCoordinate(lng) }));

describe('subscriptions: POST, GET, PUT, DELETE /organization/wzdx_feeds', () => {
  it('adds a feed with the default interval, lists it with its status, changes and deletes it', async () => {
    const created = await subscribe(token.adminA);
    expect(created).toMatchObject({
      organization_id: orgA.id,
      organization_name: 'Alpha County',
      url: feedUrl,
      poll_interval_s: 300,
      enabled: true,
      last_fetched_at: null,
      last_error: null,
      imported_count: 0,
    });
    const listed = await call(server, 'GET', `/organization/wzdx_feeds?org_ids[]=${orgA.id}`, token.userA);
    expect(listed.status).toBe(200);
    expect((listed.json as { id: string }[]).map((feed) => feed.id)).toContain(created.id);

    const changed = await call(server, 'PUT', `/organization/wzdx_feeds/${created.id}`, token.adminA, {
      url: `${feedUrl}?v=2`,
      poll_interval_s: 60,
      enabled: false,
    });
    expect(changed.status, JSON.stringify(changed.json)).toBe(200);
    expect(changed.json).toMatchObject({ url: `${feedUrl}?v=2`, poll_interval_s: 60, enabled: false });

    const deleted = await call(server, 'DELETE', `/organization/wzdx_feeds/${created.id}`, token.adminA);
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ id: created.id });
    expect(await server.database.db.select().from(wzdxFeeds).where(eq(wzdxFeeds.id, created.id))).toEqual([]);
    const again = await call(server, 'DELETE', `/organization/wzdx_feeds/${created.id}`, token.adminA);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('WZDx feed not found');
  });

  it('refuses bad input with the text of the field, and writes nothing', async () => {
    const before = await snapshot(server, wzdxFeeds, wzdxFeeds.id);
    const cases: [Record<string, unknown>, string, string][] = [
      [{}, 'url', 'Required'],
      [{ url: '   ' }, 'url', 'Required'],
      [{ url: 'ftp://example.com/feed' }, 'url', 'Must be an http or https address'],
      [{ url: 'not a url' }, 'url', 'Must be an http or https address'],
      [{ url: `http://x/${'a'.repeat(2000)}` }, 'url', '2000 Max Characters'],
      [{ url: feedUrl, poll_interval_s: 59 }, 'poll_interval_s', 'Must be at least 60 seconds'],
      [{ url: feedUrl, poll_interval_s: 90.5 }, 'poll_interval_s', 'Must be a whole number of seconds'],
      [{ url: feedUrl, poll_interval_s: 86_401 }, 'poll_interval_s', 'Must be at most 86400 seconds (1 day)'],
      [{ url: feedUrl, enabled: 'yes' }, 'enabled', 'Must be true or false'],
      [{ url: feedUrl, organization_id: 'nope' }, 'organization_id', 'must be a uuid'],
    ];
    for (const [body, field, text] of cases) {
      const answer = await call(server, 'POST', '/organization/wzdx_feeds', token.adminA, body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.body.fields).toMatchObject({ [field]: text });
      expect(answer.body.message).toBe(`${field}: ${text}`);
    }
    expect(await snapshot(server, wzdxFeeds, wzdxFeeds.id)).toBe(before);
  });

  it('is scoped to the organizations the caller may see, and writing needs closure manage', async () => {
    const own = await subscribe(token.adminA);
    const other = await subscribe(token.adminB);
    const listB = await call(server, 'GET', '/organization/wzdx_feeds', token.adminB);
    const seen = (listB.json as { id: string }[]).map((feed) => feed.id);
    expect(seen).toContain(other.id);
    expect(seen).not.toContain(own.id);
    const asked = await call(server, 'GET', `/organization/wzdx_feeds?org_ids[]=${orgA.id}`, token.adminB);
    expect(asked.status).toBe(404);
    expect(asked.body.message).toBe('Organization not found');
    const unknown = await call(server, 'GET', `/organization/wzdx_feeds?org_ids[]=00000000-0000-4000-8000-000000000000`, token.adminA);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Organization not found');

    const before = await snapshot(server, wzdxFeeds, wzdxFeeds.id);
    // Another organization's feed: not found, whatever the call.
    for (const [method, url] of [
      ['PUT', `/organization/wzdx_feeds/${own.id}`],
      ['DELETE', `/organization/wzdx_feeds/${own.id}`],
      ['POST', `/organization/wzdx_feeds/${own.id}/refresh`],
    ] as const) {
      const answer = await call(server, method, url, token.adminB, method === 'PUT' ? { url: feedUrl } : undefined);
      expect(answer.status, `${method} ${url}`).toBe(404);
      expect(answer.body.message).toBe('WZDx feed not found');
    }
    const intoOther = await call(server, 'POST', '/organization/wzdx_feeds', token.adminB, { url: feedUrl, organization_id: orgA.id });
    expect(intoOther.status).toBe(404);
    expect(intoOther.body.message).toBe('Organization not found');
    // A reader of closures (USER) reads but does not write; without closure read nothing at all.
    expect((await call(server, 'POST', '/organization/wzdx_feeds', token.userA, { url: feedUrl })).status).toBe(403);
    expect((await call(server, 'POST', `/organization/wzdx_feeds/${own.id}/refresh`, token.userA)).status).toBe(403);
    expect((await call(server, 'GET', '/organization/wzdx_feeds', token.mediaA)).status).toBe(403);
    expect((await call(server, 'GET', '/organization/wzdx_feeds', null)).status).toBe(401);
    expect(await snapshot(server, wzdxFeeds, wzdxFeeds.id)).toBe(before);
    expect(requests).toBe(0);
  });
});

describe('the import', () => {
  it('imports each work zone as a feed closure with the feature id, path and properties', async () => {
    const feed = await subscribe(token.adminA);
    const status = await refresh(feed.id);
    expect(status).toMatchObject({ last_error: null, imported_count: 5, last_fetched_at: new Date(server.clock.ms).toISOString() });

    const rows = await feedClosures(feed.id);
    expect(rows.map((row) => row.externalId)).toEqual(ids(LINESTRING));
    const source = LINESTRING.features[0]!;
    const first = rows.find((row) => row.externalId === source.id)!;
    expect(first).toMatchObject({
      organizationId: orgA.id,
      closureType: 'feed',
      isDashboardManaged: false,
      isActive: true,
      description: 'Single direction work zone without lane-level information.',
      direction: 'N',
      streetStart: 'I-80',
      vehicleImpact: 'some-lanes-closed',
      locationMethod: 'channel-device-method',
      startTime: new Date(server.clock.ms - DAY_MS),
      endTime: new Date(server.clock.ms + 7 * DAY_MS),
    });
    expect(first.calculatedRoute).toEqual(pathOf(source));

    // Clients see them as other closures: the closure list, type feed, with the WZDx id.
    const list = await call(server, 'GET', `/organization/closure?org_ids[]=${orgA.id}`, token.userA);
    const wire = (list.json as { data: { id: string; closure_type: string; external_id: string; calculated_route: unknown }[] }).data;
    const listed = wire.find((closure) => closure.external_id === source.id)!;
    expect(listed.closure_type).toBe('feed');
    expect(listed.calculated_route).toEqual(first.calculatedRoute);

    // Read-only through the closure calls.
    const put = await call(server, 'PUT', `/organization/closure/${first.id}`, token.adminA, {
      uuid: first.id,
      is_active: false,
      isQuickUpdate: true,
    });
    expect(put.status).toBe(422);
    expect(put.body.message).toBe('Closure not managed by Dashboard');
    const del = await call(server, 'DELETE', `/organization/closure/${first.id}`, token.adminA);
    expect(del.status).toBe(422);
    expect(del.body.message).toBe('Closure not managed by Dashboard');
    expect((await feedClosures(feed.id)).length).toBe(5);
  });

  it('reads MultiPoint geometry, and the same feature ids in two subscriptions do not collide', async () => {
    const line = await subscribe(token.adminB);
    await refresh(line.id, token.adminB);
    handler = serveJson(current(MULTIPOINT));
    const points = await subscribe(token.adminB);
    expect(await refresh(points.id, token.adminB)).toMatchObject({ last_error: null, imported_count: 5 });
    const rows = await feedClosures(points.id);
    expect(rows.map((row) => row.externalId)).toEqual(ids(MULTIPOINT));
    const source = MULTIPOINT.features.find((feature) => feature.id === rows[0]!.externalId)!;
    expect(source.geometry.type).toBe('MultiPoint');
    expect(rows[0]!.calculatedRoute).toEqual(pathOf(source));
    expect((await feedClosures(line.id)).length).toBe(5);
  });

  it('takes only the work zones of a feed with detours', async () => {
    handler = serveJson(current(DETOUR));
    const feed = await subscribe(token.adminB);
    expect(await refresh(feed.id, token.adminB)).toMatchObject({ imported_count: 1 });
    expect(DETOUR.features.length).toBe(4);
    expect((await feedClosures(feed.id)).map((row) => row.externalId)).toEqual(ids(DETOUR));
  });

  it('a second fetch ends the work zone gone from the feed, and clients get only what changed', async () => {
    const feed = await subscribe(token.adminA);
    await refresh(feed.id);
    const gone = LINESTRING.features[1]!.id;
    server.clock.advance(10 * MINUTE_MS);
    const since = new Date(server.clock.ms - SECOND_MS).toISOString();
    handler = serveJson(current(LINESTRING, [gone]));
    // The dates follow the clock, so every work zone's start and end moved too; keep them as they were.
    const moved = current(LINESTRING, [gone]);
    for (const feature of moved.features) {
      feature.properties.start_date = new Date(server.clock.ms - 10 * MINUTE_MS - DAY_MS).toISOString();
      feature.properties.end_date = new Date(server.clock.ms - 10 * MINUTE_MS + 7 * DAY_MS).toISOString();
    }
    handler = serveJson(moved);
    expect(await refresh(feed.id)).toMatchObject({ last_error: null, imported_count: 4 });

    const rows = await feedClosures(feed.id);
    expect(rows.length).toBe(5);
    const ended = rows.find((row) => row.externalId === gone)!;
    expect(ended).toMatchObject({ isActive: false, endTime: new Date(server.clock.ms), deletedAt: null });
    expect(rows.filter((row) => row.isActive).length).toBe(4);

    const incremental = await call(
      server,
      'GET',
      `/organization/closure?org_ids[]=${orgA.id}&last_updated_timestamp=${encodeURIComponent(since)}`,
      token.adminA,
    );
    const changed = (incremental.json as { data: { external_id: string; is_active: boolean }[] }).data;
    expect(changed.map((closure) => closure.external_id)).toEqual([gone]);
    expect(changed[0]!.is_active).toBe(false);

    // It comes back when the feed names it again.
    server.clock.advance(MINUTE_MS);
    handler = serveJson(current(LINESTRING));
    await refresh(feed.id);
    expect((await feedClosures(feed.id)).find((row) => row.externalId === gone)!.isActive).toBe(true);
  });

  it('two refreshes of one feed at once import each work zone once', async () => {
    const feed = await subscribe(token.adminA);
    const [one, two] = await Promise.all([
      call(server, 'POST', `/organization/wzdx_feeds/${feed.id}/refresh`, token.adminA),
      call(server, 'POST', `/organization/wzdx_feeds/${feed.id}/refresh`, token.adminA),
    ]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect((await feedClosures(feed.id)).map((row) => row.externalId)).toEqual(ids(LINESTRING));
  });

  it('deleting the subscription deletes its feed closures', async () => {
    const feed = await subscribe(token.adminA);
    await refresh(feed.id);
    const imported = (await feedClosures(feed.id)).map((row) => row.id);
    server.clock.advance(SECOND_MS);
    const since = new Date(server.clock.ms).toISOString();
    expect((await call(server, 'DELETE', `/organization/wzdx_feeds/${feed.id}`, token.adminA)).status).toBe(200);
    const incremental = await call(
      server,
      'GET',
      `/organization/closure?org_ids[]=${orgA.id}&last_updated_timestamp=${encodeURIComponent(since)}`,
      token.adminA,
    );
    expect((incremental.json as { meta: { deleted_ids: string[] } }).meta.deleted_ids.sort()).toEqual(imported.sort());
  });
});

describe('a work zone the schema allows but Lightbar cannot take is left out alone, with its reason', () => {
  it('a year-0 start, a NUL, an id of 100,000 characters, a path over 5,000 points once simplified: skipped; the rest imported; a 120,000-point straight path kept as its ends', async () => {
    const feed = current(LINESTRING);
    const [yearZero, nul, longId, zigzag, straight] = feed.features;
    yearZero!.properties.start_date = '0000-01-01T00:00:00Z';
    nul!.properties.core_details.description = 'Lane\u0000closed';
    longId!.id = 'x'.repeat(100_000);
    // 6,000 points a few metres apart, each off the line of its neighbours: nothing simplifies away.
    zigzag!.geometry = {
      type: 'LineString',
      coordinates: Array.from({ length: 6_000 }, (_, i) => [-93.6 + i * 1e-4, 41.6 + (i % 2) * 1e-4]),
    };
    const ends = [
      [-93.7, 41.5],
      [-93.5, 41.7],
    ];
    straight!.geometry = {
      type: 'LineString',
      coordinates: Array.from({ length: 120_000 }, (_, i) => [-93.7 + (0.2 * i) / 119_999, 41.5 + (0.2 * i) / 119_999]),
    };
    handler = serveJson(feed);
    const subscription = await subscribe(token.adminA);
    const [row] = await server.database.db.select().from(wzdxFeeds).where(eq(wzdxFeeds.id, subscription.id));
    const logged: string[] = [];
    const log = { warn: (obj: object, msg: string) => logged.push(`${msg} ${JSON.stringify(obj)}`) };
    const result = await importWzdxFeed(
      {
        db: server.database.db,
        now: () => server.clock.now(),
        limits: { timeoutMs: 10_000, maxBytes: 20_000_000, allowPrivate: true },
        log,
      },
      row!,
    );
    expect(result).toMatchObject({ ok: true, error: null, workZones: 1, inserted: 1 });
    const all = wzdxFeedWireSchema.array().parse((await call(server, 'GET', `/organization/wzdx_feeds`, token.adminA)).json);
    const listed = all.find((f) => f.id === subscription.id)!;
    expect(listed).toMatchObject({ last_error: null, imported_count: 1, skipped_count: 4 });
    expect(listed.skipped).toEqual([
      { id: yearZero!.id, reason: 'start_date: must be a real date between 1970-01-01 and 2100-01-01' },
      { id: nul!.id, reason: 'properties.core_details.description: must not contain a NUL character' },
      { id: `${'x'.repeat(80)}…`, reason: 'id: longer than 200 characters' },
      { id: zigzag!.id, reason: 'geometry: 6000 points once simplified, more than 5000' },
    ]);
    const rows = await feedClosures(subscription.id);
    expect(rows.map((r) => r.externalId)).toEqual([straight!.id]);
    expect(rows[0]!.calculatedRoute).toEqual(ends.map(([lng, lat]) => ({ lat, lng })));
    // The log names the feed and the count, never a row's values.
    expect(logged.join('\n')).not.toContain('x'.repeat(300));
    expect(logged.join('\n')).not.toContain('params');
  });
});

describe('a broken feed changes nothing and records the reason', () => {
  const oversized = () => {
    const feed = current(LINESTRING);
    feed.features[0]!.properties.core_details.description = 'x'.repeat(MAX_BYTES);
    return JSON.stringify(feed);
  };
  const failures: [string, () => Handler, string | RegExp][] = [
    ['invalid JSON', () => serveJson('{"type": "FeatureCollection", "features": ['), /^The feed is not valid JSON \(.+\)$/],
    [
      'a schema failure',
      () => {
        const feed = current(LINESTRING);
        delete feed.features[0]!.properties.core_details.direction;
        return serveJson(feed);
      },
      /^The feed is not a valid WZDx 4\.2 Work Zone Feed: features\/0\/properties\/core_details: must have required property 'direction'/,
    ],
    [
      'another major version',
      () => serveJson({ ...current(LINESTRING), feed_info: { ...LINESTRING.feed_info, version: '3.1' } }),
      'The feed is WZDx version 3.1; only WZDx 4.x feeds are read',
    ],
    ['an oversized feed (Content-Length)', () => serveJson(oversized()), 'The feed is larger than 97.7 KB and was not read'],
    [
      'an oversized feed (streamed, no length)',
      () => (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
        const text = oversized();
        for (let at = 0; at < text.length; at += 8192) response.write(text.slice(at, at + 8192));
        response.end();
      },
      'The feed is larger than 97.7 KB and was not read',
    ],
    ['HTTP 500', () => (_request, response) => response.writeHead(500).end('boom'), 'The feed answered HTTP 500 Internal Server Error'],
    ['a timeout', () => () => undefined, `The feed did not answer within ${TIMEOUT_MS / 1000} seconds`],
    [
      'a body that stalls',
      () => (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"type": ');
      },
      `The feed did not answer within ${TIMEOUT_MS / 1000} seconds`,
    ],
  ];

  for (const [what, broken, reason] of failures) {
    it(what, async () => {
      const feed = await subscribe(token.adminA);
      expect(await refresh(feed.id)).toMatchObject({ last_error: null, imported_count: 5 });
      const before = await closuresSnapshot();
      server.clock.advance(MINUTE_MS);
      handler = broken();
      const status = await refresh(feed.id);
      if (typeof reason === 'string') expect(status.last_error).toBe(reason);
      else expect(status.last_error).toMatch(reason);
      expect(status.imported_count).toBe(5);
      expect(status.last_fetched_at).toBe(new Date(server.clock.ms).toISOString());
      expect(await closuresSnapshot()).toBe(before);
      // The next good fetch clears the reason.
      handler = serveJson(current(LINESTRING));
      expect((await refresh(feed.id)).last_error).toBeNull();
    });
  }

  it('a kept-alive connection the feed closed meanwhile is not a failure (the GET is sent again once)', async () => {
    const feed = await subscribe(token.adminA);
    expect((await refresh(feed.id)).last_error).toBeNull();
    const before = requests;
    feedServer.closeAllConnections();
    expect((await refresh(feed.id)).last_error).toBeNull();
    expect(requests).toBe(before + 1);
  });

  it('an unreachable feed', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const feed = await subscribe(token.adminA, { url: `http://127.0.0.1:${port}/feed` });
    expect((await refresh(feed.id)).last_error).toBe('The feed could not be reached (ECONNREFUSED)');
  });
});

describe('the job runner', () => {
  it('fetches each enabled feed when due, at its own interval', async () => {
    await server.database.db.delete(closures).where(eq(closures.closureType, 'feed'));
    await server.database.db.delete(wzdxFeeds);
    const runner = startJobRunner(server.deps, { engine: server.database.engine });
    const every = await subscribe(token.adminA, { poll_interval_s: 60 });
    const disabled = await subscribe(token.adminA, { enabled: false });
    requests = 0;
    const first = await runner.runOnce();
    expect(first).toMatchObject({ feedsFetched: 1, feedsFailed: 0 });
    expect(requests).toBe(1);
    expect((await feedClosures(every.id)).length).toBe(5);
    expect(await feedClosures(disabled.id)).toEqual([]);

    server.clock.advance(59 * SECOND_MS);
    expect((await runner.runOnce()).feedsFetched).toBe(0);
    server.clock.advance(SECOND_MS);
    handler = (_request, response) => response.writeHead(503).end();
    expect(await runner.runOnce()).toMatchObject({ feedsFetched: 1, feedsFailed: 1 });
    const [row] = await server.database.db.select().from(wzdxFeeds).where(eq(wzdxFeeds.id, every.id));
    expect(row!.lastError).toBe('The feed answered HTTP 503 Service Unavailable');
    expect(requests).toBe(2);
    await runner.stop();
  });
});

describe('WZDX_FETCH_TIMEOUT_MS, WZDX_FETCH_MAX_BYTES and WZDX_FETCH_ALLOW_PRIVATE', () => {
  it('default to 15 s and 5 MB; a value that is no positive whole number stops the start', () => {
    expect(readConfig({}).wzdxFetch).toEqual({ timeoutMs: 15_000, maxBytes: 5 * 1024 * 1024, allowPrivate: false });
    expect(readConfig({ WZDX_FETCH_TIMEOUT_MS: '2000', WZDX_FETCH_MAX_BYTES: '1024', WZDX_FETCH_ALLOW_PRIVATE: '1' }).wzdxFetch).toEqual({
      timeoutMs: 2000,
      maxBytes: 1024,
      allowPrivate: true,
    });
    expect(() => readConfig({ WZDX_FETCH_ALLOW_PRIVATE: 'yes' })).toThrow('WZDX_FETCH_ALLOW_PRIVATE must be 0 or 1, got "yes"');
    expect(() => readConfig({ WZDX_FETCH_TIMEOUT_MS: '0' })).toThrow(
      'WZDX_FETCH_TIMEOUT_MS must be a whole number of milliseconds from 1, got "0"',
    );
    expect(() => readConfig({ WZDX_FETCH_MAX_BYTES: '5MB' })).toThrow(
      'WZDX_FETCH_MAX_BYTES must be a whole number of bytes from 1, got "5MB"',
    );
  });
});

describe('a feed on a local or private address (server-side request forgery)', () => {
  const limits = { timeoutMs: 2_000, maxBytes: MAX_BYTES, allowPrivate: false };

  it('is refused before any request, by address or by a name that resolves to one, and the subscription records why', async () => {
    requests = 0;
    const port = (feedServer.address() as AddressInfo).port;
    for (const [url, host] of [
      [feedUrl, '127.0.0.1'],
      [`http://localhost:${port}/feed.geojson`, 'localhost'],
      [`http://[::1]:${port}/feed.geojson`, '[::1]'],
      [`http://10.1.2.3/feed.geojson`, '10.1.2.3'],
      [`http://169.254.169.254/latest/meta-data`, '169.254.169.254'],
    ]) {
      await expect(fetchFeedText(url!, limits)).rejects.toThrow(
        `The feed's address (${host}) is on a local or private network, which this server does not fetch. Ask whoever runs Lightbar to allow it.`,
      );
    }
    expect(requests).toBe(0);

    const guarded = await createTestServer({ env: { WZDX_FETCH_ALLOW_PRIVATE: '0' } });
    try {
      const org = await guarded.createOrg({ name: 'Guarded County' });
      const admin = await guarded.signIn((await guarded.createUser({ org, role: 'ADMIN' })).email);
      const created = await call(guarded, 'POST', '/organization/wzdx_feeds', admin, { url: feedUrl });
      expect(created.status).toBe(201);
      const id = (created.json as { id: string }).id;
      const refreshed = await call(guarded, 'POST', `/organization/wzdx_feeds/${id}/refresh`, admin);
      expect(wzdxFeedWireSchema.parse(refreshed.json).last_error).toBe(
        "The feed's address (127.0.0.1) is on a local or private network, which this server does not fetch. Ask whoever runs Lightbar to allow it.",
      );
      expect(requests).toBe(0);
    } finally {
      await guarded.close();
    }
  });

  it('a redirect is checked like the first address: a public feed cannot send the server to a private one', async () => {
    requests = 0;
    handler = (_request, response) => response.writeHead(302, { location: 'file:///etc/passwd' }).end();
    // The first hop is the local test server (allowed here); the redirect's target goes through the same check.
    await expect(fetchFeedText(feedUrl, { ...limits, allowPrivate: true })).rejects.toThrow('The feed must be an http or https address');
    let hops = 0;
    handler = (_request, response) => {
      hops += 1;
      response.writeHead(302, { location: feedUrl }).end();
    };
    await expect(fetchFeedText(feedUrl, { ...limits, allowPrivate: true })).rejects.toThrow('The feed redirected more than 5 times');
    expect(hops).toBe(6);
  });

  it('tells public from non-public addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.8',
      '172.31.255.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '224.0.0.1',
      'not-an-address',
    ]) {
      expect(isNonPublicAddress(address), address).toBe(true);
    }
    for (const address of ['8.8.8.8', '151.101.1.69', '2606:4700::1111', '::ffff:8.8.8.8', '172.32.0.1']) {
      expect(isNonPublicAddress(address), address).toBe(false);
    }
  });
});
