/**
 * The three-word address of a map point (part 1 §2 right-click menu, §8 "Three-word lookup"):
 * a provider interface, backed by the what3words HTTP API when `VITE_WHAT3WORDS_API_KEY` is set.
 * Without a key — or when the service answers an error, nothing readable, or cannot be reached —
 * the provider answers "not found" (null) and the menu shows THREE_WORD_TEXT.notFound.
 */
import { z } from 'zod';
import { COORDINATE_DECIMALS } from '../domain/constants';
import { formatCoordinate, isValidLatLng, type LatLng } from '../domain/coordinates';

export interface ThreeWordProvider {
  /** The words ('filled.count.soap'), or null when there is no address for the point. */
  lookup(point: LatLng, signal?: AbortSignal): Promise<string | null>;
}

export const WHAT3WORDS_API = 'https://api.what3words.com/v3/convert-to-3wa';

/** The part of what3words' convert-to-3wa answer we read. */
const convertAnswerSchema = z.object({ words: z.string().regex(/^[^\s.]+\.[^\s.]+\.[^\s.]+$/u) });

export type FetchLike = (input: string, init?: { signal?: AbortSignal }) => Promise<Pick<Response, 'ok' | 'json'>>;

/** The convert-to-3wa address of a point (coordinates at COORDINATE_DECIMALS places). */
export function what3wordsUrl(point: LatLng, apiKey: string): string {
  const coordinates = `${formatCoordinate(point.lat, COORDINATE_DECIMALS)},${formatCoordinate(point.lng, COORDINATE_DECIMALS)}`;
  return `${WHAT3WORDS_API}?coordinates=${coordinates}&language=en&key=${encodeURIComponent(apiKey)}`;
}

/** what3words over HTTP; every failure is "not found" (the menu has one failure text). */
export function what3wordsProvider(apiKey: string, fetchImpl: FetchLike): ThreeWordProvider {
  return {
    async lookup(point, signal) {
      if (!isValidLatLng(point)) return null;
      try {
        const response = await fetchImpl(what3wordsUrl(point, apiKey), signal ? { signal } : {});
        if (!response.ok) return null;
        const parsed = convertAnswerSchema.safeParse(await response.json());
        return parsed.success ? parsed.data.words : null;
      } catch {
        return null;
      }
    },
  };
}

/** No key configured: every point is "not found". */
export const noThreeWordProvider: ThreeWordProvider = {
  lookup: () => Promise.resolve(null),
};

type Env = Record<string, string | boolean | undefined>;

/** what3words when VITE_WHAT3WORDS_API_KEY is set, else the provider that finds nothing. */
export function threeWordProviderFromEnv(
  env: Env = import.meta.env,
  fetchImpl: FetchLike | undefined = globalThis.fetch?.bind(globalThis),
): ThreeWordProvider {
  const key = typeof env.VITE_WHAT3WORDS_API_KEY === 'string' ? env.VITE_WHAT3WORDS_API_KEY.trim() : '';
  return key && fetchImpl ? what3wordsProvider(key, fetchImpl) : noThreeWordProvider;
}
