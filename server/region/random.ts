/**
 * A small seeded pseudo-random generator (mulberry32), so that the demo seed and the fleet
 * simulator produce the same fleet for the same `SIM_SEED`. Not for anything secret.
 *
 * `fork(label)` derives an independent stream from the seed and a label, so one part of the seed
 * drawing more or fewer numbers never shifts what another part draws.
 */

/** The seed used when `SIM_SEED` is unset. */
export const DEFAULT_SIM_SEED = 2026;

export interface Random {
  /** The seed this stream was made from. */
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** A float in [min, max). */
  range(min: number, max: number): number;
  /** An integer in [min, max] (both included). */
  int(min: number, max: number): number;
  /** true with probability p. */
  chance(p: number): boolean;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** One key, with probability proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K;
  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[];
  /** `count` distinct elements (or all of them, shuffled, when there are fewer). */
  sample<T>(items: readonly T[], count: number): T[];
  /** A version-4-shaped UUID drawn from this stream (repeatable, unlike crypto.randomUUID). */
  uuid(): string;
  /** An independent stream for a named part of the work. */
  fork(label: string): Random;
}

/** 32-bit FNV-1a of a string: turns a label into a seed. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: a tiny generator with a full 2^32 period, good enough for demo data. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const HEX = '0123456789abcdef';

export function createRandom(seed: number): Random {
  const raw = mulberry32(seed);
  const random: Random = {
    seed,
    next: raw,
    range: (min, max) => min + raw() * (max - min),
    int: (min, max) => min + Math.floor(raw() * (max - min + 1)),
    chance: (p) => raw() < p,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(raw() * items.length)] as T;
    },
    weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
      const entries = Object.entries(weights) as [K, number][];
      const total = entries.reduce((sum, [, w]) => sum + w, 0);
      let roll = raw() * total;
      for (const [key, weight] of entries) {
        roll -= weight;
        if (roll < 0) return key;
      }
      const last = entries[entries.length - 1];
      if (!last) throw new Error('weighted pick from no weights');
      return last[0];
    },
    shuffle<T>(items: readonly T[]): T[] {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(raw() * (i + 1));
        const a = out[i] as T;
        out[i] = out[j] as T;
        out[j] = a;
      }
      return out;
    },
    sample<T>(items: readonly T[], count: number): T[] {
      return random.shuffle(items).slice(0, Math.max(0, count));
    },
    uuid() {
      let hex = '';
      for (let i = 0; i < 32; i++) hex += HEX[Math.floor(raw() * 16)];
      // Version 4 and the RFC 4122 variant, so any uuid check accepts it.
      const variant = HEX[8 + Math.floor(raw() * 4)];
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
    },
    fork: (label) => createRandom((hashString(label) ^ Math.imul(seed, 0x9e3779b1)) >>> 0),
  };
  return random;
}
