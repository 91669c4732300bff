/**
 * What the organizations draw on the map: areas (stations, yards, hospitals, exclusions, AV zones)
 * and alerting zones.
 */
import { DAY_MS, type AssetType } from '../../src/domain/constants';
import { polygonToGeoJson, toGeoJsonFeature, type LatLng } from '../../src/domain/geometry';
import type { alertingZones, alertingZoneThings, areas } from '../db/schema';
import { CITY, intersectionName, nodePosition, offsetMetres, RING_HIGHWAY_NAME, streetByName, streetSection } from '../region/geography';
import type { Random } from '../region/random';
import { clamp, DEMO_ORGS, truncateCoordinate, type DemoOrgKey, type Insert, type OrgIds, type PlanContext } from './demo-context';
import type { PlannedThing } from './demo-fleet';

/** Station radius (part 2 §3 radius_dist is in miles): about 100 m. */
const STATION_RADIUS_MI = 0.06;

export interface DemoAreas {
  areas: Insert<typeof areas>[];
  /** The stations of the emergency fleets, where standby responders wait. */
  stationsByOrg: Map<DemoOrgKey, { id: string; position: LatLng }[]>;
}

/** Areas: stations, yards, hospitals, exclusions, AV zones. */
export function planAreas(ctx: PlanContext, areaRandom: Random, orgIds: OrgIds, plannedThings: readonly PlannedThing[]): DemoAreas {
  const { areaRows, pointArea, polygonArea } = areaPlanner(ctx, areaRandom, orgIds);
  const stationsByOrg = new Map<DemoOrgKey, { id: string; position: LatLng }[]>();
  // Stations for the emergency fleets; standby responders wait at some of them.
  const countOf = (org: DemoOrgKey): number => plannedThings.filter((t) => t.org === org).length;
  const stationNames = (org: DemoOrgKey, n: number): string[] => {
    if (org === 'police')
      return ['APD Headquarters', 'APD North Substation', 'APD South Substation', 'APD East Substation', 'APD West Substation'].slice(0, n);
    const word = org === 'fire' ? 'Fire Station' : 'EMS Station';
    return Array.from({ length: n }, (_, i) => `${word} ${i + 1}`);
  };
  for (const [org, perStation, max] of [
    ['fire', 10, 12],
    ['ems', 12, 8],
    ['police', 40, 5],
  ] as const) {
    const n = clamp(Math.ceil(countOf(org) / perStation), 2, max);
    stationsByOrg.set(
      org,
      stationNames(org, n).map((name) => pointArea(org, name, 'station', STATION_RADIUS_MI, `${DEMO_ORGS[org]} station`)),
    );
  }
  pointArea('publicWorks', 'Public Works Service Center', 'work_yard', 0.12, 'Fleet yard and fuel island');
  pointArea('txdot', 'TxDOT Austin Maintenance Yard', 'work_yard', 0.12, 'Arrow boards and attenuator trucks');
  for (const hospital of [
    'Dell Seton Medical Center',
    "St. David's Medical Center",
    'Ascension Seton Medical Center',
    "Dell Children's Medical Center",
    "St. David's South Austin Medical Center",
    'Heart Hospital of Austin',
  ]) {
    pointArea('ems', hospital, 'hospital', null, 'Emergency department');
  }
  polygonArea('regional', 'Zilker Park', 'other', 'No staging on the great lawn', 380, 420);
  polygonArea('regional', 'State Capitol Grounds', 'other', 'Restricted: state property', 260, 240);
  polygonArea('police', 'Austin High School', 'school_zone', 'School zone 7:00-9:00 and 14:30-16:30', 220, 260);
  polygonArea('publicWorks', 'Downtown Farmers Market', 'other', 'Saturdays 9:00-13:00', 150, 200);
  polygonArea('txdot', 'IH-35 Construction Staging', 'other', 'Contractor staging area', 300, 180);
  polygonArea('regional', 'Congress Ave Bridge', 'no_stop', 'Automated vehicles: do not stop on the bridge', 200, 60);
  polygonArea('regional', 'Capitol Complex Garage', 'no_enter', 'Automated vehicles: do not enter', 120, 120);
  return { areas: areaRows, stationsByOrg };
}

/** Point and polygon areas, each at an inner grid node of its own, with a street address. */
function areaPlanner(ctx: PlanContext, areaRandom: Random, orgIds: OrgIds) {
  const { refs, now, net } = ctx;
  const areaRows: Insert<typeof areas>[] = [];
  const areaTypeId = (dbName: string): string => {
    const id = refs.areaTypeIds[dbName];
    if (!id) throw new Error(`reference data lacks the area type ${dbName}`);
    return id;
  };
  const usedNodes = new Set<number>();
  const innerNode = (random: Random): number => {
    for (;;) {
      const row = random.int(2, net.gridSize - 3);
      const col = random.int(2, net.gridSize - 3);
      const id = net.gridNode(row, col);
      if (!usedNodes.has(id)) {
        usedNodes.add(id);
        return id;
      }
    }
  };
  const address = (random: Random, nodeId: number) => ({
    address1: `${random.int(100, 9899)} ${intersectionName(net, nodeId).split(' & ')[0] ?? ''}`,
    city: CITY.name,
    state: CITY.state,
    postalCode: random.pick(CITY.postalCodes),
    countryCode: CITY.countryCode,
  });
  const pointArea = (
    org: DemoOrgKey,
    name: string,
    dbName: string,
    radiusMi: number | null,
    desc: string,
  ): { id: string; position: LatLng } => {
    const nodeId = innerNode(areaRandom);
    // Set back from the corner, off the roadway.
    const position = offsetMetres(nodePosition(net, nodeId), 35, 35);
    const id = areaRandom.uuid();
    areaRows.push({
      id,
      organizationId: orgIds[org],
      name,
      desc,
      ezTypeId: areaTypeId(dbName),
      lat: position.lat,
      lng: position.lng,
      radiusDist: radiusMi,
      pointGeom: { lat: position.lat, lon: position.lng },
      ...address(areaRandom, nodeId),
      createdAt: now,
      updatedAt: now,
    });
    return { id, position };
  };
  const polygonArea = (org: DemoOrgKey, name: string, dbName: string, desc: string, halfNorthM: number, halfEastM: number): LatLng[] => {
    const nodeId = innerNode(areaRandom);
    const c = offsetMetres(nodePosition(net, nodeId), areaRandom.range(-150, 150), areaRandom.range(-150, 150));
    // A pentagon-ish ring, a little irregular, well under 0.5 sq mi (at most ~0.3).
    const ring = [
      offsetMetres(c, -halfNorthM, -halfEastM),
      offsetMetres(c, -halfNorthM, halfEastM),
      offsetMetres(c, halfNorthM * 0.6, halfEastM * 1.1),
      offsetMetres(c, halfNorthM, 0),
      offsetMetres(c, halfNorthM * 0.7, -halfEastM),
    ].map((p) => ({ lat: truncateCoordinate(p.lat), lng: truncateCoordinate(p.lng) }));
    areaRows.push({
      id: areaRandom.uuid(),
      organizationId: orgIds[org],
      name,
      desc,
      ezTypeId: areaTypeId(dbName),
      areaGeom: polygonToGeoJson(ring),
      ...address(areaRandom, nodeId),
      createdAt: now,
      updatedAt: now,
    });
    return ring;
  };
  return { areaRows, pointArea, polygonArea };
}

export interface DemoAlertingZones {
  alertingZones: Insert<typeof alertingZones>[];
  alertingZoneThings: Insert<typeof alertingZoneThings>[];
}

/** Alerting zones of the police, the regional organization and TxDOT, with the assets that alert in each. */
export function planAlertingZones(
  ctx: PlanContext,
  zoneRandom: Random,
  orgIds: OrgIds,
  plannedThings: readonly PlannedThing[],
): DemoAlertingZones {
  const { now, net, ago } = ctx;
  const zoneRows: Insert<typeof alertingZones>[] = [];
  const zoneThingRows: Insert<typeof alertingZoneThings>[] = [];
  const zone = (
    org: DemoOrgKey,
    externalId: string,
    typeName: string,
    description: string,
    alertMessage: string,
    isActive: boolean,
    features: unknown[],
    members: PlannedThing[],
  ): void => {
    const id = zoneRandom.uuid();
    zoneRows.push({
      id,
      organizationId: orgIds[org],
      externalId,
      typeName,
      description,
      alertMessage,
      isActive,
      features,
      defaultExpiry: 3600,
      createdAt: ago(30 * DAY_MS),
      updatedAt: now,
    });
    for (const t of members) zoneThingRows.push({ zoneId: id, thingId: t.row.id });
  };
  const members = (org: DemoOrgKey, types: readonly AssetType[], n: number): PlannedThing[] =>
    zoneRandom.sample(
      plannedThings.filter((t) => t.org === org && types.includes(t.type) && t.row.inService !== false),
      n,
    );
  const ih35 = streetByName(net, 'IH-35 Frontage Rd', 'arterial');
  const ih35Section = streetSection(ih35, 10, 4).path;
  zone(
    'police',
    'AZ-APD-001',
    'School Zone',
    'Austin High School zone',
    'School zone: 20 mph',
    true,
    [polygonFeature(nodePosition(net, net.gridNode(8, 6)), 250, 300)],
    members('police', ['police'], 3),
  );
  zone(
    'regional',
    'AZ-TCR-002',
    'Special Event',
    'Zilker Park festival traffic',
    'Event traffic ahead',
    false,
    [
      polygonFeature(nodePosition(net, net.gridNode(7, 4)), 500, 450),
      toGeoJsonFeature({ kind: 'circle', center: nodePosition(net, net.gridNode(7, 5)), radius: 300 }),
    ],
    members('ems', ['ambulance'], 2),
  );
  zone(
    'txdot',
    'AZ-TXD-001',
    'Work Zone',
    'IH-35 Capital Express Central',
    'Work zone: merge left',
    true,
    [
      toGeoJsonFeature({
        kind: 'line',
        path: ih35Section.map((p) => ({ lat: truncateCoordinate(p.lat), lng: truncateCoordinate(p.lng) })),
      }),
      polygonFeature(nodePosition(net, net.gridNode(11, 14)), 900, 120),
    ],
    members('txdot', ['arrow_board', 'maintenance'], 4),
  );
  zone(
    'txdot',
    'AZ-TXD-002',
    'Incident Zone',
    'Loop 360 incident management',
    'Incident ahead',
    false,
    [toGeoJsonFeature({ kind: 'circle', center: nodePosition(net, streetByName(net, RING_HIGHWAY_NAME).nodeIds[9] ?? 0), radius: 800 })],
    [],
  );
  return { alertingZones: zoneRows, alertingZoneThings: zoneThingRows };
}

const polygonFeature = (c: LatLng, halfNorthM: number, halfEastM: number) =>
  toGeoJsonFeature({
    kind: 'polygon',
    ring: [
      offsetMetres(c, -halfNorthM, -halfEastM),
      offsetMetres(c, -halfNorthM, halfEastM),
      offsetMetres(c, halfNorthM, halfEastM),
      offsetMetres(c, halfNorthM, -halfEastM),
    ].map((p) => ({
      lat: truncateCoordinate(p.lat),
      lng: truncateCoordinate(p.lng),
    })),
  });
