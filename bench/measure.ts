import { performance } from 'node:perf_hooks';

export interface BenchResult {
  name: string;
  runs: number;
  p50Ms: number;
  p95Ms: number;
}

/** The p-th percentile (nearest rank) of an ascending list; 0 for an empty one. */
export function percentile(sorted: readonly number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? 0;
}

/** Runs `fn` once to warm up, then `runs` times; reports the median and the 95th percentile. */
export function measure(name: string, runs: number, fn: () => unknown): BenchResult {
  fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 100) / 100;
  return { name, runs, p50Ms: round(percentile(times, 50)), p95Ms: round(percentile(times, 95)) };
}
