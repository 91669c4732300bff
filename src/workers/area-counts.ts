/**
 * The asset count of each area marker (part 1 §2 Map: "Area markers show asset counts"), counted
 * in the live worker so the main thread never loops over the fleet. An R-tree (rbush) over the
 * areas' boxes answers, per asset, the few areas it may be in; `isInAreaShape` decides. The count
 * is of the assets the map draws (present and listed: they pass the asset filter), and is kept
 * until the fleet's diff version or the areas change.
 */
import RBush from 'rbush';
import { areaShapeBox, isInAreaShape, type AreaShape } from '../domain/area-shape';
import { FLAG_LISTED, FLAG_PRESENT, type FleetBuffers } from '../domain/live-diff';

/** What the main thread receives: the fleet version counted and the count per area id. */
export interface AreaCountsAnswer {
  version: number;
  counts: Record<string, number>;
}

interface ShapeBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  shape: AreaShape;
}

/** The assets counted: in a slot and matching the filter (what the map draws). */
export const COUNTED_FLAGS = FLAG_PRESENT | FLAG_LISTED;

/**
 * The number of counted slots (below `slots`) inside each shape, keyed by shape id. An asset in
 * two overlapping areas counts in both.
 */
export function countAssetsInAreas(
  shapes: readonly AreaShape[],
  buffers: Pick<FleetBuffers, 'lngLat' | 'flags'>,
  slots: number,
  tree: RBush<ShapeBox> = indexShapes(shapes),
): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const shape of shapes) counts[shape.id] = 0;
  if (shapes.length === 0) return counts;
  const { lngLat, flags } = buffers;
  const probe = { minX: 0, minY: 0, maxX: 0, maxY: 0 };
  const point = { lat: 0, lng: 0 };
  for (let slot = 0; slot < slots; slot += 1) {
    if (((flags[slot] ?? 0) & COUNTED_FLAGS) !== COUNTED_FLAGS) continue;
    point.lng = lngLat[2 * slot] as number;
    point.lat = lngLat[2 * slot + 1] as number;
    probe.minX = probe.maxX = point.lng;
    probe.minY = probe.maxY = point.lat;
    for (const { shape } of tree.search(probe)) {
      if (isInAreaShape(point, shape)) counts[shape.id] = (counts[shape.id] ?? 0) + 1;
    }
  }
  return counts;
}

function indexShapes(shapes: readonly AreaShape[]): RBush<ShapeBox> {
  const tree = new RBush<ShapeBox>();
  tree.load(
    shapes.map((shape) => {
      const [minX, minY, maxX, maxY] = areaShapeBox(shape);
      return { minX, minY, maxX, maxY, shape };
    }),
  );
  return tree;
}

/** Keeps the index of the last areas and the last answer: asking again without a change is free. */
export class AreaCounter {
  private key: string | null = null;
  private tree = new RBush<ShapeBox>();
  private shapes: readonly AreaShape[] = [];
  private answer: AreaCountsAnswer | null = null;

  count(shapes: readonly AreaShape[], buffers: FleetBuffers, slots: number, version: number): AreaCountsAnswer {
    const key = JSON.stringify(shapes);
    if (key !== this.key) {
      this.key = key;
      this.shapes = shapes;
      this.tree = indexShapes(shapes);
      this.answer = null;
    }
    if (this.answer && this.answer.version === version) return this.answer;
    this.answer = { version, counts: countAssetsInAreas(this.shapes, buffers, slots, this.tree) };
    return this.answer;
  }

  clear(): void {
    this.key = null;
    this.tree.clear();
    this.shapes = [];
    this.answer = null;
  }
}
