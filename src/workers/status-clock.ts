/**
 * The one clock of the live engine (part 1 §4 staleness and status windows; ARCHITECTURE "one
 * clock"): a deadline queue holding, per asset slot, the next time its status or staleness can
 * change with no new data (`nextStatusDeadline`). An indexed binary min-heap: setting a slot's
 * deadline moves its one entry up or down in O(log n), so 10,000 heartbeats a second neither grow
 * the queue nor leave stale entries behind. The engine arms a single timer for the earliest
 * deadline; there is no timer per asset.
 *
 * The heap holds each entry's deadline next to its slot (`keys`, in heap order), so sifting reads
 * one contiguous array instead of looking each slot's deadline up at random, and it moves a hole
 * rather than swapping (bench/README.md: the clock is set for every message of a batch).
 */
export class StatusClock {
  /** Slots in heap order. */
  private heap: Int32Array;
  /** Their deadlines, in the same order (the sift compares these). */
  private keys: Float64Array;
  private size = 0;
  /** Heap position per slot, -1 when the slot has no deadline. */
  private position: Int32Array;

  constructor(capacity = 1024) {
    this.heap = new Int32Array(capacity);
    this.keys = new Float64Array(capacity);
    this.position = new Int32Array(capacity).fill(-1);
  }

  get length(): number {
    return this.size;
  }

  /** Room for slots below `capacity`. */
  grow(capacity: number): void {
    if (capacity <= this.position.length) return;
    const heap = new Int32Array(capacity);
    heap.set(this.heap);
    const keys = new Float64Array(capacity);
    keys.set(this.keys);
    const position = new Int32Array(capacity).fill(-1);
    position.set(this.position);
    this.heap = heap;
    this.keys = keys;
    this.position = position;
  }

  /** The slot's next deadline (ms), or none (null). */
  set(slot: number, at: number | null): void {
    if (at === null) {
      this.delete(slot);
      return;
    }
    if (slot >= this.position.length) this.grow(Math.max(slot + 1, this.position.length * 2));
    const index = this.position[slot] as number;
    if (index < 0) {
      this.size += 1;
      this.up(this.size - 1, slot, at);
      return;
    }
    const previous = this.keys[index] as number;
    if (previous === at) return;
    if (at < previous) this.up(index, slot, at);
    else this.down(index, slot, at);
  }

  get(slot: number): number | null {
    const index = slot < this.position.length ? (this.position[slot] as number) : -1;
    return index >= 0 ? (this.keys[index] as number) : null;
  }

  delete(slot: number): void {
    if (slot >= this.position.length) return;
    const index = this.position[slot] as number;
    if (index < 0) return;
    this.position[slot] = -1;
    this.size -= 1;
    if (index === this.size) return;
    // The last entry fills the hole, then finds its place up or down.
    const last = this.heap[this.size] as number;
    const at = this.keys[this.size] as number;
    if (index > 0 && at < (this.keys[(index - 1) >> 1] as number)) this.up(index, last, at);
    else this.down(index, last, at);
  }

  /** The earliest deadline, or null when nothing can change by time alone. */
  next(): number | null {
    return this.size > 0 ? (this.keys[0] as number) : null;
  }

  /** Removes every slot whose deadline is at or before `now` and pushes it to `out`. */
  popDue(now: number, out: number[]): void {
    while (this.size > 0 && (this.keys[0] as number) <= now) {
      const slot = this.heap[0] as number;
      this.delete(slot);
      out.push(slot);
    }
  }

  clear(): void {
    for (let i = 0; i < this.size; i += 1) this.position[this.heap[i] as number] = -1;
    this.size = 0;
  }

  /** Places (slot, at) at the hole `index` or above it, moving larger parents down. */
  private up(index: number, slot: number, at: number): void {
    const { heap, keys, position } = this;
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const parentAt = keys[parent] as number;
      if (!(at < parentAt)) break;
      const parentSlot = heap[parent] as number;
      heap[i] = parentSlot;
      keys[i] = parentAt;
      position[parentSlot] = i;
      i = parent;
    }
    heap[i] = slot;
    keys[i] = at;
    position[slot] = i;
  }

  /** Places (slot, at) at the hole `index` or below it, moving smaller children up. */
  private down(index: number, slot: number, at: number): void {
    const { heap, keys, position } = this;
    const size = this.size;
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= size) break;
      const right = left + 1;
      let child = left;
      let childAt = keys[left] as number;
      if (right < size && (keys[right] as number) < childAt) {
        child = right;
        childAt = keys[right] as number;
      }
      if (!(childAt < at)) break;
      const childSlot = heap[child] as number;
      heap[i] = childSlot;
      keys[i] = childAt;
      position[childSlot] = i;
      i = child;
    }
    heap[i] = slot;
    keys[i] = at;
    position[slot] = i;
  }
}
