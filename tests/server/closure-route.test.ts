import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distanceM, type LatLng } from '../../src/domain/geometry';
import { NO_ROAD_MESSAGE } from '../../server/http/closure-route/schema';
import { austinRoadNetwork, nodePosition, offsetMetres } from '../../server/region/geography';
import { RoadIndex } from '../../server/region/road-index';
import { call } from '../support/account-calls';
import { createTestServer, type TestServer } from '../support/test-server';

// part 2 §7 "Closure routing uses a maps directions service (driving, waypoints)": without Google,
// the server routes the drawn closure path along the road network the simulator drives.
let server: TestServer;
let admin = '';
let media = '';
const network = austinRoadNetwork();
const index = new RoadIndex(network);

beforeAll(async () => {
  server = await createTestServer();
  const org = await server.createOrg({ name: 'Route DOT' });
  admin = await server.signIn((await server.createUser({ org, role: 'ADMIN' })).email);
  media = await server.signIn((await server.createUser({ org, role: 'USER (Incidents / Events only)' })).email);
});
afterAll(() => server.close());

interface RouteAnswer {
  path: LatLng[];
  street_start: string;
  street_end: string;
  distance_m: number;
}

describe('POST /closure/route (the offline closure router)', () => {
  it('routes two points diagonally apart along the streets: every point of the path lies on a road, start and end streets named', async () => {
    // Two grid intersections three blocks apart both ways: no straight road joins them.
    const a = offsetMetres(nodePosition(network, network.gridNode(4, 4)), 5, 20);
    const b = offsetMetres(nodePosition(network, network.gridNode(7, 7)), -20, 5);
    const answer = await call(server, 'POST', '/closure/route', admin, { points: [a, b] });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const route = answer.json as RouteAnswer;
    expect(route.path.length).toBeGreaterThan(3);
    for (const p of route.path) expect(index.nearestEdge(p).distanceM).toBeLessThan(1);
    // It turns corners: longer than the straight line, at most the Manhattan distance (plus the snaps).
    const straight = distanceM(a, b);
    expect(route.distance_m).toBeGreaterThan(straight * 1.1);
    expect(route.street_start).toBe(index.nearestEdge(a).edge.street);
    expect(route.street_end).toBe(index.nearestEdge(b).edge.street);
    expect(distanceM(route.path[0]!, a)).toBeLessThan(30);
    expect(distanceM(route.path[route.path.length - 1]!, b)).toBeLessThan(30);
  });

  it('passes through a middle waypoint', async () => {
    const a = nodePosition(network, network.gridNode(3, 3));
    const via = nodePosition(network, network.gridNode(3, 6));
    const b = nodePosition(network, network.gridNode(6, 6));
    const route = (await call(server, 'POST', '/closure/route', admin, { points: [a, via, b] })).json as RouteAnswer;
    expect(route.path.some((p) => distanceM(p, via) < 1)).toBe(true);
  });

  it('answers 422 with the reason for a point far from every road (the form keeps the straight path)', async () => {
    const far = offsetMetres(network.center, 60_000, 60_000);
    const answer = await call(server, 'POST', '/closure/route', admin, { points: [network.center, far] });
    expect(answer.status).toBe(422);
    expect(JSON.stringify(answer.body)).toContain(NO_ROAD_MESSAGE);
  });

  it('validates: 2 to 25 points; 401 without a token; 403 without a closure write permission', async () => {
    expect((await call(server, 'POST', '/closure/route', admin, { points: [network.center] })).status).toBe(422);
    expect((await call(server, 'POST', '/closure/route', admin, { points: Array(26).fill(network.center) })).status).toBe(422);
    expect((await call(server, 'POST', '/closure/route', admin, { points: [{ lat: 200, lng: 0 }, network.center] })).status).toBe(422);
    expect((await call(server, 'POST', '/closure/route', '', { points: [network.center, network.center] })).status).toBe(401);
    expect((await call(server, 'POST', '/closure/route', media, { points: [network.center, network.center] })).status).toBe(403);
  });
});
