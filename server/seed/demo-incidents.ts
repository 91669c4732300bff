/**
 * Incidents (locations): a few active ones with their crews on scene, one of them already cleared,
 * and a week of past ones.
 */
import { DAY_MS, HOUR_MS, MINUTE_MS, R2R_CAPABLE_TYPES, SECOND_MS, type AssetType } from '../../src/domain/constants';
import type { LatLng } from '../../src/domain/geometry';
import type { locations, locationThings } from '../db/schema';
import { edgeOf, intersectionName, offsetMetres, positionOnEdge, type RoadNetwork } from '../region/geography';
import type { Random } from '../region/random';
import { at, clamp, truncateCoordinate, type Insert, type PlanContext } from './demo-context';
import type { PlannedThing } from './demo-fleet';

const INACTIVE_LOCATIONS = 30;

export interface DemoIncidents {
  locations: Insert<typeof locations>[];
  locationThings: Insert<typeof locationThings>[];
}

/** The active incidents, then the past week's, drawn in that order from one stream. */
export function planIncidents(ctx: PlanContext, locRandom: Random, plannedThings: readonly PlannedThing[]): DemoIncidents {
  const emergency = plannedThings.filter((t) => R2R_CAPABLE_TYPES.includes(t.type) && t.org !== 'capmetro');
  const active = planActiveIncidents(ctx, locRandom, emergency);
  const historyPool = emergency.length > 0 ? emergency : plannedThings;
  const past = planPastIncidents(ctx, locRandom, historyPool);
  return {
    locations: [...active.locations, ...past.locations],
    locationThings: [...active.locationThings, ...past.locationThings],
  };
}

/** The active incidents, each with the available responders of its kind on scene. */
function planActiveIncidents(ctx: PlanContext, locRandom: Random, emergency: readonly PlannedThing[]): DemoIncidents {
  const { input, net, now, nowMs, ago } = ctx;
  const locationRows: Insert<typeof locations>[] = [];
  const locationThingRows: Insert<typeof locationThings>[] = [];
  const available = (t: PlannedThing): boolean =>
    t.row.inService !== false && (t.state === 'active' || t.state === 'standby' || t.state === 'station');
  const activeLocationCount = clamp(Math.round(input.assets / 250), 3, 8);
  for (let i = 0; i < activeLocationCount; i++) {
    const kind = locRandom.pick(INCIDENT_KINDS);
    const crew: PlannedThing[] = [];
    for (const type of kind.types) {
      const pool = emergency.filter((t) => t.type === type && available(t) && !crew.includes(t));
      if (pool.length > 0) crew.push(locRandom.pick(pool));
    }
    if (crew.length === 0) continue;
    const startMs = nowMs - locRandom.range(6, 75) * MINUTE_MS;
    const scene = incidentScene(net, locRandom);
    const id = locRandom.uuid();
    const lead = crew[0] as PlannedThing;
    locationRows.push({
      id,
      organizationId: lead.row.organizationId,
      externalId: `CAD26-${locRandom.int(100_000, 999_999)}`,
      displayName: kind.name,
      isActive: true,
      lat: scene.position.lat,
      lng: scene.position.lng,
      street: scene.street,
      roadwayHeading: Math.round(scene.heading),
      startTime: at(startMs),
      alertMessage: kind.alert,
      createdAt: at(startMs),
      updatedAt: now,
    });
    crew.forEach((t, k) => {
      const arrived = Math.min(nowMs - MINUTE_MS, startMs + k * locRandom.range(0.5, 6) * MINUTE_MS);
      const spot = offsetMetres(scene.position, locRandom.range(-30, 30), locRandom.range(-30, 30));
      t.state = 'location';
      Object.assign(t.row, {
        lat: spot.lat,
        lng: spot.lng,
        course: scene.heading,
        speed: 0,
        enroute: false,
        lightsOn: true,
        street: null,
        stationId: null,
        stillSince: at(arrived),
        heartbeatAt: ago(locRandom.range(1, 20) * SECOND_MS),
        locationId: id,
      });
      locationThingRows.push({ locationId: id, thingId: t.row.id, startTime: at(arrived), isActive: true });
    });
    // Someone already cleared from the scene.
    const cleared = emergency.filter((t) => t.state !== 'location' && t.row.inService !== false);
    if (cleared.length > 0 && locRandom.chance(0.6)) {
      const t = locRandom.pick(cleared);
      const arrived = startMs + locRandom.range(1, 4) * MINUTE_MS;
      locationThingRows.push({
        locationId: id,
        thingId: t.row.id,
        startTime: at(arrived),
        endTime: at(Math.min(nowMs - MINUTE_MS, arrived + locRandom.range(3, 20) * MINUTE_MS)),
        isActive: false,
      });
    }
  }
  return { locations: locationRows, locationThings: locationThingRows };
}

/** Incidents of the past week, cleared, with the crews that went. */
function planPastIncidents(ctx: PlanContext, locRandom: Random, historyPool: readonly PlannedThing[]): DemoIncidents {
  const { net, now, nowMs } = ctx;
  const locationRows: Insert<typeof locations>[] = [];
  const locationThingRows: Insert<typeof locationThings>[] = [];
  for (let i = 0; i < INACTIVE_LOCATIONS && historyPool.length > 0; i++) {
    const kind = locRandom.pick(INCIDENT_KINDS);
    const startMs = nowMs - locRandom.range(2 * HOUR_MS, 7 * DAY_MS - HOUR_MS);
    const endMs = startMs + locRandom.range(15, 150) * MINUTE_MS;
    const scene = incidentScene(net, locRandom);
    const crew = locRandom.sample(
      historyPool.filter((t) => kind.types.includes(t.type)),
      locRandom.int(1, 4),
    );
    if (crew.length === 0) crew.push(locRandom.pick(historyPool));
    const id = locRandom.uuid();
    locationRows.push({
      id,
      organizationId: (crew[0] as PlannedThing).row.organizationId,
      externalId: `CAD26-${locRandom.int(100_000, 999_999)}`,
      displayName: kind.name,
      isActive: false,
      lat: scene.position.lat,
      lng: scene.position.lng,
      street: scene.street,
      roadwayHeading: Math.round(scene.heading),
      startTime: at(startMs),
      endTime: at(endMs),
      alertMessage: kind.alert,
      createdAt: at(startMs),
      updatedAt: now,
    });
    for (const t of crew) {
      const arrived = startMs + locRandom.range(0, 8) * MINUTE_MS;
      const left = Math.max(arrived + MINUTE_MS, endMs - locRandom.range(0, 10) * MINUTE_MS);
      locationThingRows.push({ locationId: id, thingId: t.row.id, startTime: at(arrived), endTime: at(left), isActive: false });
    }
  }
  return { locations: locationRows, locationThings: locationThingRows };
}

const INCIDENT_KINDS: readonly { name: string; types: readonly AssetType[]; alert: string }[] = [
  { name: 'Structure fire', types: ['fire', 'fire', 'ambulance', 'police'], alert: 'Fire apparatus ahead' },
  { name: 'Vehicle collision', types: ['police', 'ambulance', 'fire'], alert: 'Crash ahead: move over' },
  { name: 'Medical emergency', types: ['ambulance', 'fire'], alert: 'EMS on scene' },
  { name: 'Traffic stop', types: ['police'], alert: 'Police ahead: move over' },
  { name: 'Hazardous materials spill', types: ['fire', 'fire', 'police'], alert: 'Hazmat scene: avoid area' },
  { name: 'Disabled vehicle', types: ['police'], alert: 'Stopped vehicle ahead' },
  { name: 'Gas leak', types: ['fire', 'police'], alert: 'Emergency crews ahead' },
];

function incidentScene(net: RoadNetwork, random: Random): { position: LatLng; street: string; heading: number } {
  const row = random.int(1, net.gridSize - 2);
  const col = random.int(1, net.gridSize - 2);
  const nodeId = net.gridNode(row, col);
  const edgeId = random.pick(net.adjacency[nodeId] ?? [0]);
  const edge = edgeOf(net, edgeId);
  const p = positionOnEdge(net, edgeId, random.range(0.02, 0.12), edge.to === nodeId);
  return {
    position: { lat: truncateCoordinate(p.lat), lng: truncateCoordinate(p.lng) },
    street: intersectionName(net, nodeId),
    heading: p.course,
  };
}
