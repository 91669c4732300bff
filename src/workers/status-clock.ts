/**
 * The one clock of the live engine (part 1 §4 staleness and status windows; ARCHITECTURE "one
 * clock"): a deadline queue holding, per asset slot, the next time its status or staleness can
 * change with no new data (`nextStatusDeadline`). An indexed binary min-heap: setting a slot's
 * deadline moves its one entry up or down in O(log n), so 10,000 heartbeats a second neither grow
 * the queue nor leave stale entries behind. The engine arms a single timer for the earliest
 * deadline; there is no timer per asset.
 */
export class StatusClock {
  private heap: Int32Array;
  private size = 0;
  /** Heap position per slot, -1 when the slot has no deadline. */
  private position: Int32Array;
  private deadline: Float64Array;

  constructor(capacity = 1024) {
    this.heap = new Int32Array(capacity);
    this.position = new Int32Array(capacity).fill(-1);
    this.deadline = new Float64Array(capacity);
  }

  get length(): number {
    return this.size;
  }

  /** Room for slots below `capacity`. */
  grow(capacity: number): void {
    if (capacity <= this.position.length) return;
    const heap = new Int32Array(capacity);
    heap.set(this.heap);
    const position = new Int32Array(capacity).fill(-1);
    position.set(this.position);
    const deadline = new Float64Array(capacity);
    deadline.set(this.deadline);
    this.heap = heap;
    this.position = position;
    this.deadline = deadline;
  }

  /** The slot's next deadline (ms), or none (null). */
  set(slot: number, at: number | null): void {
    if (at === null) {
      this.delete(slot);
      return;
    }
    if (slot >= this.position.length) this.grow(Math.max(slot + 1, this.position.length * 2));
    const at0 = this.position[slot] as number;
    if (at0 < 0) {
      this.deadline[slot] = at;
      this.heap[this.size] = slot;
      this.position[slot] = this.size;
      this.size += 1;
      this.up(this.size - 1);
      return;
    }
    const previous = this.deadline[slot] as number;
    if (previous === at) return;
    this.deadline[slot] = at;
    if (at < previous) this.up(at0);
    else this.down(at0);
  }

  get(slot: number): number | null {
    return slot < this.position.length && (this.position[slot] as number) >= 0 ? (this.deadline[slot] as number) : null;
  }

  delete(slot: number): void {
    if (slot >= this.position.length) return;
    const index = this.position[slot] as number;
    if (index < 0) return;
    this.position[slot] = -1;
    this.size -= 1;
    if (index === this.size) return;
    const last = this.heap[this.size] as number;
    this.heap[index] = last;
    this.position[last] = index;
    this.up(index);
    this.down(this.position[last] as number);
  }

  /** The earliest deadline, or null when nothing can change by time alone. */
  next(): number | null {
    return this.size > 0 ? (this.deadline[this.heap[0] as number] as number) : null;
  }

  /** Removes every slot whose deadline is at or before `now` and pushes it to `out`. */
  popDue(now: number, out: number[]): void {
    while (this.size > 0) {
      const slot = this.heap[0] as number;
      if ((this.deadline[slot] as number) > now) return;
      this.delete(slot);
      out.push(slot);
    }
  }

  clear(): void {
    for (let i = 0; i < this.size; i += 1) this.position[this.heap[i] as number] = -1;
    this.size = 0;
  }

  private less(i: number, j: number): boolean {
    return (this.deadline[this.heap[i] as number] as number) < (this.deadline[this.heap[j] as number] as number);
  }

  private swap(i: number, j: number): void {
    const a = this.heap[i] as number;
    const b = this.heap[j] as number;
    this.heap[i] = b;
    this.heap[j] = a;
    this.position[b] = i;
    this.position[a] = j;
  }

  private up(index: number): void {
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(index: number): void {
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.size) return;
      const right = left + 1;
      const child = right < this.size && this.less(right, left) ? right : left;
      if (!this.less(child, i)) return;
      this.swap(i, child);
      i = child;
    }
  }
}
