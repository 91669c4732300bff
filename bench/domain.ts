import { computeAssetStatus } from '../src/domain/asset-status';
import { fromThingsWire, type ThingWireInput, thingWireSchema } from '../src/domain/asset';
import { createAssetFilter, defaultStatusFilter, filterAssets, sortAssets } from '../src/domain/asset-filter';
import { ASSET_TYPES, HOUR_MS, MINUTE_MS } from '../src/domain/constants';
import { measure, type BenchResult } from './measure';

/** A fleet of `count` thing wires with every status represented, repeatable. */
export function syntheticFleet(count: number, now: number): ThingWireInput[] {
  let state = 42;
  const random = () => (state = (state * 1_664_525 + 1_013_904_223) >>> 0) / 2 ** 32;
  const ages = [10_000, 30 * MINUTE_MS, 3 * HOUR_MS, 20 * HOUR_MS, 200 * HOUR_MS];
  return Array.from({ length: count }, (_, i) => ({
    id: `thing-${i}`,
    haas_id: `HA5-${String(i).padStart(6, '0')}`,
    nickname: i % 3 === 0 ? null : `Unit ${i}`,
    heartbeat_datetime: new Date(now - (ages[i % ages.length] ?? 0)).toISOString(),
    thing_type: ASSET_TYPES[i % ASSET_TYPES.length],
    enroute: random() < 0.3,
    in_service: random() > 0.02,
    street: random() < 0.2 ? 'Congress Ave' : null,
    location_id: random() < 0.01 ? 'loc-1' : null,
    lat: 30.2 + random() * 0.2,
    lng: -97.8 + random() * 0.2,
    course: random() * 360,
    speed: random() * 30,
  }));
}

/** Domain rules over a whole fleet: what the worker runs at load and on every filter change. */
export function benchDomain(count: number): BenchResult[] {
  const now = Date.UTC(2026, 10, 22, 12);
  const wires = syntheticFleet(count, now).map((wire) => thingWireSchema.parse(wire));
  const assets = fromThingsWire(wires, now);
  const filter = createAssetFilter({ statuses: defaultStatusFilter(true), search: 'unit 1' });
  return [
    measure(`map ${count} thing wires to assets`, 10, () => fromThingsWire(wires, now)),
    measure(`computeAssetStatus × ${count}`, 20, () => {
      for (const asset of assets) computeAssetStatus(asset, now);
    }),
    measure(`filter ${count} assets (default statuses + search)`, 20, () => filterAssets(assets, filter)),
    measure(`sort ${count} assets`, 10, () => sortAssets(assets)),
  ];
}
