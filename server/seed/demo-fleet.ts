/**
 * The demo fleet: every asset type, owned across the regional family, TxDOT and Capital Metro; its
 * starting states and, by state, positions and heartbeats; the assets shared one by one with other
 * organizations, and the integrations of the organizations whose assets report through an api.
 */
import {
  ASSET_TYPES,
  DAY_MS,
  HOUR_MS,
  LIGHT_INTENSITY_OPTIONS,
  MINUTE_MS,
  R2R_CAPABLE_TYPES,
  R2R_DEVICE_TYPES,
  SECOND_MS,
  type AssetType,
} from '../../src/domain/constants';
import type { LatLng } from '../../src/domain/geometry';
import type { integrationConfigurations, thingExternalIdentifiers, thingRelationships, things } from '../db/schema';
import { offsetMetres, randomRoadPosition, type RoadNetwork, type RoadPosition } from '../region/geography';
import type { Random } from '../region/random';
import { DEMO_ORGS, truncateCoordinate, type DemoOrgKey, type Insert, type OrgIds, type PlanContext } from './demo-context';

/**
 * What an asset is doing when the seed runs. Statuses follow from these facts through
 * `computeAssetStatus` (src/domain/asset-status.ts); the seed never stores a status.
 */
export type AssetState = 'active' | 'standby' | 'station' | 'stationary' | 'pending' | 'offline' | 'oos' | 'location' | 'closure';

/** Share of the fleet in each starting state (location and closure are taken out of these later). */
const STATE_SHARE: Readonly<Record<'active' | 'standby' | 'stationary' | 'pending' | 'offline' | 'oos', number>> = {
  active: 0.18,
  standby: 0.32,
  stationary: 0.2,
  pending: 0.12,
  offline: 0.12,
  oos: 0.06,
};

const TYPE_SHARE: Readonly<Record<AssetType, number>> = {
  police: 0.28,
  fire: 0.12,
  ambulance: 0.12,
  arrow_board: 0.1,
  maintenance: 0.16,
  tow: 0.08,
  waste: 0.14,
};

/** Who owns the i-th asset of a type: cycles through the pattern (TxDOT gets the first arrow boards). */
const OWNERS: Readonly<Record<AssetType, readonly DemoOrgKey[]>> = {
  police: ['police'],
  fire: ['fire'],
  ambulance: ['ems'],
  arrow_board: ['txdot', 'txdot', 'txdot', 'publicWorks', 'regional', 'publicWorks', 'txdot', 'publicWorks'],
  maintenance: ['publicWorks', 'txdot', 'publicWorks', 'regional', 'publicWorks', 'txdot'],
  tow: ['publicWorks', 'txdot', 'publicWorks'],
  waste: ['publicWorks'],
};
const CAPMETRO_TYPES: readonly AssetType[] = ['maintenance', 'maintenance', 'tow', 'police', 'maintenance', 'arrow_board'];

/** Subtype weights, by subtype name. */
const SUBTYPE_WEIGHTS: Readonly<Record<AssetType, Readonly<Record<string, number>>>> = {
  police: { patrol_car: 6, suv: 3, motorcycle: 1 },
  fire: { engine: 6, ladder: 2, rescue: 2 },
  ambulance: { als: 7, bls: 3 },
  arrow_board: { trailer: 6, truck_mounted: 4 },
  maintenance: { plow: 2, sweeper: 3, attenuator_truck: 4 },
  tow: { flatbed: 5, wrecker: 5 },
  waste: { rear_loader: 5, side_loader: 5 },
};

/** Nickname words by subtype and where the numbering starts ('Engine 12', 'Medic 7'). */
const NICKNAMES: Readonly<Record<string, readonly [word: string, first: number]>> = {
  patrol_car: ['Patrol', 101],
  suv: ['Unit', 201],
  motorcycle: ['Motor', 1],
  engine: ['Engine', 1],
  ladder: ['Ladder', 1],
  rescue: ['Rescue', 1],
  als: ['Medic', 1],
  bls: ['Medic', 51],
  trailer: ['Arrow Board', 1],
  truck_mounted: ['Arrow Truck', 1],
  plow: ['Plow', 1],
  sweeper: ['Sweeper', 1],
  attenuator_truck: ['TMA', 1],
  flatbed: ['Flatbed', 1],
  wrecker: ['Wrecker', 1],
  rear_loader: ['Refuse', 101],
  side_loader: ['Refuse', 301],
};
const NICKNAME_PREFIX: Partial<Record<DemoOrgKey, string>> = {
  txdot: 'TxDOT ',
  publicWorks: 'PW ',
  regional: 'Regional ',
  capmetro: 'CapMetro ',
};
const REGISTRY_PREFIX: Readonly<Record<DemoOrgKey, string>> = {
  regional: 'TCR',
  fire: 'AFD',
  ems: 'ATCEMS',
  police: 'APD',
  publicWorks: 'TCPW',
  txdot: 'TXDOT',
  williamson: 'WILCO',
  acs: 'LBI',
  capmetro: 'CMTA',
};
/** Vehicle makers' world manufacturer identifiers for VINs by type (Ford, Pierce, Freightliner...). */
const VIN_WMI: Readonly<Record<AssetType, readonly string[]>> = {
  police: ['1FM', '2C3', '1GN'],
  fire: ['4P1', '1FV'],
  ambulance: ['1FD', '3C7'],
  arrow_board: ['5KT', '1FT'],
  maintenance: ['1FV', '1HT'],
  tow: ['1FD', '1HT'],
  waste: ['1M2', '3BP'],
};
const VIN_CHARS = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
const PLATE_LETTERS = 'BCDFGHJKLMNPRSTVWXYZ';
const DEVICE_TYPE_WEIGHTS = { ha5: 55, ha7: 35, api: 10 } as const;
type DeviceType = keyof typeof DEVICE_TYPE_WEIGHTS;
const PROVIDER_BY_ORG: Readonly<Record<DemoOrgKey, 'samsara' | 'geotab'>> = {
  regional: 'samsara',
  fire: 'samsara',
  ems: 'samsara',
  police: 'samsara',
  publicWorks: 'geotab',
  txdot: 'geotab',
  williamson: 'samsara',
  acs: 'samsara',
  capmetro: 'geotab',
};
/** The WZDx feed TxDOT's arrow boards report into. */
export const TXDOT_FEED_ID = 'txdot-austin-wzdx';

export interface PlannedThing {
  row: Insert<typeof things> & { id: string; haasId: string };
  type: AssetType;
  org: DemoOrgKey;
  state: AssetState;
  deviceType: DeviceType;
}

/** The fleet, numbered and named by type and owner; every asset starts as standby until `assignStates`. */
export function planFleet(ctx: PlanContext, thingRandom: Random, orgIds: OrgIds): PlannedThing[] {
  const { refs, input, now, ago } = ctx;
  const typeCounts = splitCounts(Math.max(0, Math.floor(input.assets)), TYPE_SHARE);
  const plannedThings: PlannedThing[] = [];
  const nicknameCounters = new Map<string, number>();
  const registryCounters = new Map<DemoOrgKey, number>();
  const addThing = (type: AssetType, org: DemoOrgKey): void => {
    const random = thingRandom;
    const subtype = random.weighted(SUBTYPE_WEIGHTS[type]);
    const deviceType = random.weighted(DEVICE_TYPE_WEIGHTS);
    const seq = plannedThings.length + 1;
    const [word, first] = NICKNAMES[subtype] ?? [type, 1];
    const nickKey = `${org}:${word}`;
    const number = (nicknameCounters.get(nickKey) ?? first - 1) + 1;
    nicknameCounters.set(nickKey, number);
    const registry = (registryCounters.get(org) ?? 0) + 1;
    registryCounters.set(org, registry);
    const emergency = R2R_CAPABLE_TYPES.includes(type);
    const r2rHardware = (R2R_DEVICE_TYPES as readonly string[]).includes(deviceType);
    const isR2rEnabled = emergency && r2rHardware && random.chance(0.6);
    const row: PlannedThing['row'] = {
      id: random.uuid(),
      organizationId: orgIds[org],
      haasId: `${deviceType.toUpperCase()}-${String(seq).padStart(6, '0')}`,
      // A few assets have no nickname: the dashboard then shows the upper-cased haas id.
      nickname: random.chance(0.07) ? null : `${NICKNAME_PREFIX[org] ?? ''}${word} ${number}`,
      thingTypeId: refs.thingTypeIds[type],
      thingSubtypeId: refs.subtypeIds[type][subtype] ?? null,
      vinNumber: vin(random, type),
      licensePlateNumber: random.chance(0.9) ? plate(random) : null,
      registryNumber: random.chance(0.7) ? `${REGISTRY_PREFIX[org]}-${String(registry).padStart(4, '0')}` : null,
      externalId: deviceType === 'api' ? `${PROVIDER_BY_ORG[org] === 'samsara' ? 'SAM' : 'GEO'}-${random.int(100_000, 999_999)}` : null,
      deviceType,
      isResponder: emergency,
      isR2rEnabled,
      isAllowedForTestMode: isR2rEnabled ? random.chance(0.5) : random.chance(0.1),
      isAllowedForClosures: type === 'arrow_board' || type === 'maintenance',
      lightIntensity: deviceType === 'ha5' ? random.pick(LIGHT_INTENSITY_OPTIONS) : null,
      feedSubscriptions: org === 'txdot' && type === 'arrow_board' && random.chance(0.6) ? [TXDOT_FEED_ID] : [],
      accuracy: Math.round(random.range(3, 12) * 10) / 10,
      createdAt: ago(random.range(30, 900) * DAY_MS),
      updatedAt: now,
    };
    plannedThings.push({ row, type, org, state: 'standby', deviceType });
  };
  for (const type of ASSET_TYPES) {
    const owners = OWNERS[type];
    for (let i = 0; i < typeCounts[type]; i++) addThing(type, owners[i % owners.length] as DemoOrgKey);
  }
  const capmetroCount = Math.min(50, Math.ceil(Math.max(0, input.assets) / 10));
  for (let i = 0; i < capmetroCount; i++) addThing(CAPMETRO_TYPES[i % CAPMETRO_TYPES.length] as AssetType, 'capmetro');
  return plannedThings;
}

/** Starting states, spread evenly across the fleet then shuffled. */
export function assignStates(stateRandom: Random, plannedThings: readonly PlannedThing[]): void {
  const stateCounts = splitCounts(plannedThings.length, STATE_SHARE);
  const stateList = stateRandom.shuffle(
    (Object.keys(stateCounts) as (keyof typeof STATE_SHARE)[]).flatMap((state) =>
      Array.from({ length: stateCounts[state] }, () => state as AssetState),
    ),
  );
  plannedThings.forEach((t, i) => {
    t.state = stateList[i] ?? 'standby';
  });
}

/** Positions and heartbeats by state; standby responders wait at some of their organization's stations. */
export function placeFleet(
  ctx: PlanContext,
  liveRandom: Random,
  plannedThings: readonly PlannedThing[],
  stationsByOrg: ReadonlyMap<DemoOrgKey, readonly { id: string; position: LatLng }[]>,
): void {
  const { net, nowMs } = ctx;
  for (const t of plannedThings) placeThing(t, liveRandom, net, nowMs, stationsByOrg.get(t.org) ?? []);
}

/** Things shared one by one: a few Public Works assets managed by TxDOT, a few responders seen by Williamson County. */
export function planShares(
  shareRandom: Random,
  orgIds: OrgIds,
  plannedThings: readonly PlannedThing[],
): Insert<typeof thingRelationships>[] {
  const regionalFamily = plannedThings.filter((t) => t.org !== 'txdot' && t.org !== 'capmetro');
  return [
    ...shareRandom
      .sample(
        regionalFamily.filter((t) => t.org === 'publicWorks'),
        5,
      )
      .map((t) => ({ thingId: t.row.id, organizationId: orgIds.txdot, relationshipType: 'manager' as const })),
    ...shareRandom
      .sample(
        regionalFamily.filter((t) => t.org === 'ems' || t.org === 'fire'),
        6,
      )
      .map((t) => ({ thingId: t.row.id, organizationId: orgIds.williamson, relationshipType: 'accessor' as const })),
  ];
}

export interface DemoIntegrations {
  integrationConfigurations: Insert<typeof integrationConfigurations>[];
  thingExternalIdentifiers: Insert<typeof thingExternalIdentifiers>[];
}

/** The external identifier of every api asset, and one integration per organization that has any (drawn after the shares, from their stream). */
export function planIntegrations(
  ctx: PlanContext,
  shareRandom: Random,
  orgIds: OrgIds,
  plannedThings: readonly PlannedThing[],
): DemoIntegrations {
  const { ago } = ctx;
  const integrationRows: Insert<typeof integrationConfigurations>[] = [];
  const externalIdentifierRows: Insert<typeof thingExternalIdentifiers>[] = [];
  const integratedOrgs = new Set<DemoOrgKey>();
  for (const t of plannedThings) {
    if (t.deviceType !== 'api' || !t.row.externalId) continue;
    integratedOrgs.add(t.org);
    externalIdentifierRows.push({
      id: shareRandom.uuid(),
      thingId: t.row.id,
      identifierId: t.row.externalId,
      systemName: PROVIDER_BY_ORG[t.org],
    });
  }
  for (const org of Object.keys(DEMO_ORGS) as DemoOrgKey[]) {
    if (!integratedOrgs.has(org)) continue;
    const provider = PROVIDER_BY_ORG[org];
    integrationRows.push({
      id: shareRandom.uuid(),
      organizationId: orgIds[org],
      provider,
      settings:
        provider === 'samsara'
          ? { organization_id: `demo-${REGISTRY_PREFIX[org].toLowerCase()}` }
          : { database: `demo_${REGISTRY_PREFIX[org].toLowerCase()}` },
      createdAt: ago(90 * DAY_MS),
    });
  }
  return { integrationConfigurations: integrationRows, thingExternalIdentifiers: externalIdentifierRows };
}

/** Integer counts per key, proportional to the shares, summing to `total` (largest remainders). */
function splitCounts<K extends string>(total: number, shares: Readonly<Record<K, number>>): Record<K, number> {
  const keys = Object.keys(shares) as K[];
  const sum = keys.reduce((acc, k) => acc + shares[k], 0);
  const exact = keys.map((k) => (total * shares[k]) / sum);
  const counts = exact.map(Math.floor);
  let left = total - counts.reduce((a, b) => a + b, 0);
  const order = exact.map((v, i) => [v - Math.floor(v), i] as const).sort((a, b) => b[0] - a[0]);
  for (const [, i] of order) {
    if (left <= 0) break;
    counts[i] = (counts[i] ?? 0) + 1;
    left -= 1;
  }
  return Object.fromEntries(keys.map((k, i) => [k, counts[i] ?? 0])) as Record<K, number>;
}

function vin(random: Random, type: AssetType): string {
  let body = '';
  for (let i = 0; i < 14; i++) body += VIN_CHARS[random.int(0, VIN_CHARS.length - 1)];
  return `${random.pick(VIN_WMI[type])}${body}`;
}

function plate(random: Random): string {
  let letters = '';
  for (let i = 0; i < 3; i++) letters += PLATE_LETTERS[random.int(0, PLATE_LETTERS.length - 1)];
  return `${letters}-${random.int(1000, 9999)}`;
}

/**
 * Position, heartbeat and motion of an asset by its starting state. The status rule reads these
 * facts: an enroute asset with a recent heartbeat is active; a recent one without a street is
 * standby, with a street (set after 10 still minutes) stationary; 8 h to 96 h of silence is
 * pending; more is offline.
 */
function placeThing(
  t: PlannedThing,
  random: Random,
  net: RoadNetwork,
  nowMs: number,
  stations: readonly { id: string; position: LatLng }[],
): void {
  const ago = (ms: number): Date => new Date(nowMs - ms);
  let state = t.state;
  if (state === 'standby' && stations.length > 0 && random.chance(0.5)) state = 'station';
  t.state = state;
  const road: RoadPosition = randomRoadPosition(net, random, true);
  const base = {
    lat: truncateCoordinate(road.lat),
    lng: truncateCoordinate(road.lng),
    course: Math.round(road.course),
    speed: 0,
    enroute: false,
    lightsOn: false,
    street: null as string | null,
    stillSince: null as Date | null,
    stationId: null as string | null,
    inService: true,
  };
  switch (state) {
    case 'active':
      Object.assign(t.row, base, {
        enroute: true,
        lightsOn: true,
        speed: Math.round(random.range(0.5, 0.95) * road.speedLimitMph),
        heartbeatAt: ago(random.range(1, 20) * SECOND_MS),
      });
      break;
    case 'station': {
      const station = random.pick(stations);
      const spot = offsetMetres(station.position, random.range(-20, 20), random.range(-20, 20));
      Object.assign(t.row, base, {
        lat: truncateCoordinate(spot.lat),
        lng: truncateCoordinate(spot.lng),
        stationId: station.id,
        heartbeatAt: ago(random.range(1, 180) * SECOND_MS),
      });
      break;
    }
    case 'standby':
      Object.assign(t.row, base, { stillSince: ago(random.range(0.5, 9) * MINUTE_MS), heartbeatAt: ago(random.range(1, 180) * SECOND_MS) });
      break;
    case 'stationary':
      Object.assign(t.row, base, {
        street: road.street,
        stillSince: ago(random.range(12, 240) * MINUTE_MS),
        heartbeatAt: ago(random.range(1, 120) * SECOND_MS),
      });
      break;
    case 'pending': {
      const heartbeat = random.range(8.5, 90) * HOUR_MS;
      Object.assign(t.row, base, {
        street: random.chance(0.5) ? road.street : null,
        stillSince: ago(heartbeat + random.range(1, 120) * MINUTE_MS),
        heartbeatAt: ago(heartbeat),
      });
      break;
    }
    case 'offline': {
      const heartbeat = random.range(100, 40 * 24) * HOUR_MS;
      Object.assign(t.row, base, { stillSince: ago(heartbeat + random.range(1, 120) * MINUTE_MS), heartbeatAt: ago(heartbeat) });
      break;
    }
    case 'oos': {
      const heartbeat = random.chance(0.5) ? random.range(1, 120) * SECOND_MS : random.range(1, 20 * 24) * HOUR_MS;
      Object.assign(t.row, base, { inService: false, stillSince: ago(heartbeat + HOUR_MS), heartbeatAt: ago(heartbeat) });
      break;
    }
    case 'location':
    case 'closure':
      // Set where the incident or closure is planned.
      break;
  }
  // A few quiet assets have alerting switched off; it turns back on within the hour.
  if (t.row.inService !== false && !t.row.lightsOn && random.chance(0.03)) {
    t.row.isPubliclyAlerting = false;
    t.row.alertingOffAt = ago(random.range(5, 50) * MINUTE_MS);
  }
  if (t.row.isAllowedForTestMode && random.chance(0.05)) t.row.isTestModeOn = true;
}
