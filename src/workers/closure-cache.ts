/**
 * Closures as the live worker keeps them (part 2 §4): loaded
 * with `last_updated_timestamp` and tombstones, and switched active or not by the socket's closure
 * messages. The closures section asks for them on request.
 */
import { closureStatus, fromClosureWire, type Closure, type ClosureWire, type LinkedAssetFacts } from '../domain/closure';

export class ClosureCache {
  private readonly byId = new Map<string, Closure>();
  version = 0;
  since: string | null = null;

  get size(): number {
    return this.byId.size;
  }

  apply(
    wires: readonly ClosureWire[],
    deletedIds: readonly string[],
    now: number,
    assetOf: (thingId: string) => LinkedAssetFacts | null,
  ): boolean {
    if (wires.length === 0 && deletedIds.length === 0) return false;
    for (const id of deletedIds) this.byId.delete(id);
    for (const wire of wires) {
      this.byId.set(wire.id, fromClosureWire(wire, now, wire.thing ? assetOf(wire.thing.id) : null));
    }
    this.version += 1;
    return true;
  }

  /** part 1 §4 "closure sets the asset active": the closure's own flag follows the message. */
  setActive(id: string, isActive: boolean, now: number, linkedAsset: LinkedAssetFacts | null): void {
    const closure = this.byId.get(id);
    if (!closure || closure.isActive === isActive) return;
    const updated = { ...closure, isActive };
    updated.status = closureStatus(updated, now, linkedAsset);
    this.byId.set(id, updated);
    this.version += 1;
  }

  get(id: string): Closure | null {
    return this.byId.get(id) ?? null;
  }

  all(): Closure[] {
    return [...this.byId.values()];
  }

  clear(): void {
    this.byId.clear();
    this.since = null;
    this.version += 1;
  }
}
