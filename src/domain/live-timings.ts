/**
 * How fresh the drawn map is, measured where it is drawn (bench/README.md "Application bench"). While a
 * measurement is on, the worker sends with each diff a histogram of the ages of the positions it
 * moved in that batch (the message's timestamp to the batch); the page adds the time from the
 * batch to the frame that drew it. Histograms, never values per asset: the main thread does a
 * fixed amount of work per diff however many assets moved.
 */

/** Width of one bucket (ms). */
export const AGE_BUCKET_MS = 20;
/** Buckets in a histogram: 0 to 30 s; the last one holds everything older. */
export const AGE_BUCKETS = 1_500;

/** The bucket of an age in ms (a negative age, a clock a little ahead, counts as 0). */
export function ageBucket(ageMs: number): number {
  if (!(ageMs > 0)) return 0;
  return Math.min(AGE_BUCKETS - 1, Math.floor(ageMs / AGE_BUCKET_MS));
}

export function createAgeHistogram(): Uint32Array {
  return new Uint32Array(AGE_BUCKETS);
}

/** The histogram of `now − time` over `times` (ms clocks). */
export function ageHistogram(times: ArrayLike<number>, count: number, now: number): Uint32Array {
  const histogram = createAgeHistogram();
  for (let i = 0; i < count; i += 1) histogram[ageBucket(now - (times[i] as number))]! += 1;
  return histogram;
}

/** Adds `source` to `target` with every age `shiftMs` older (the time from the batch to the drawn frame). */
export function addShifted(target: Uint32Array, source: Uint32Array, shiftMs: number): void {
  const shift = Math.max(0, Math.round(shiftMs / AGE_BUCKET_MS));
  for (let i = 0; i < AGE_BUCKETS; i += 1) {
    const n = source[i] as number;
    if (n !== 0) target[Math.min(AGE_BUCKETS - 1, i + shift)]! += n;
  }
}

export function histogramCount(histogram: Uint32Array): number {
  let count = 0;
  for (let i = 0; i < histogram.length; i += 1) count += histogram[i] as number;
  return count;
}

/**
 * The age (ms) below which `p` per cent of the counted positions lie: the upper edge of the bucket
 * that reaches it (so never flattering by more than one bucket); null when nothing was counted.
 */
export function histogramPercentile(histogram: Uint32Array, p: number): number | null {
  const count = histogramCount(histogram);
  if (count === 0) return null;
  const wanted = Math.max(1, Math.ceil((p / 100) * count));
  let seen = 0;
  for (let i = 0; i < histogram.length; i += 1) {
    seen += histogram[i] as number;
    if (seen >= wanted) return (i + 1) * AGE_BUCKET_MS;
  }
  return histogram.length * AGE_BUCKET_MS;
}
