/**
 * part 1 §2 / §8 the three-word address: the what3words HTTP API when a key is configured, with
 * fetch answered at the HTTP boundary by what3words' own JSON; "not found" otherwise.
 */
import { describe, expect, it, vi } from 'vitest';
import { noThreeWordProvider, threeWordProviderFromEnv, what3wordsProvider, what3wordsUrl } from '../../src/map/three-words';

/** What api.what3words.com/v3/convert-to-3wa answers (its documented JSON). */
const W3W_ANSWER = {
  country: 'US',
  square: { southwest: { lng: -97.743134, lat: 30.267186 }, northeast: { lng: -97.743103, lat: 30.267213 } },
  nearestPlace: 'Austin, Texas',
  coordinates: { lng: -97.743118, lat: 30.2672 },
  words: 'index.home.raft',
  language: 'en',
  map: 'https://w3w.co/index.home.raft',
};

function answer(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('part1 §8 three-word lookup (what3words)', () => {
  it('asks convert-to-3wa for the point in English with the key and answers the words', async () => {
    const fetch = vi.fn(async (_url: string) => answer(200, W3W_ANSWER));
    const provider = what3wordsProvider('KEY/1', fetch);
    await expect(provider.lookup({ lat: 30.2672, lng: -97.7431 })).resolves.toBe('index.home.raft');
    expect(fetch).toHaveBeenCalledWith(
      'https://api.what3words.com/v3/convert-to-3wa?coordinates=30.2672000,-97.7431000&language=en&key=KEY%2F1',
      {},
    );
  });

  it.each([
    ['an error answer', async () => answer(400, { error: { code: 'BadCoordinates', message: 'latitude must be >=-90 and <= 90' } })],
    ['a quota answer', async () => answer(402, { error: { code: 'QuotaExceeded', message: 'Quota Exceeded' } })],
    ['an answer without words', async () => answer(200, { country: 'US' })],
    ['a network failure', (): Promise<Response> => Promise.reject(new TypeError('Failed to fetch'))],
  ])('%s is "not found"', async (_name, reply: () => Promise<Response>) => {
    const provider = what3wordsProvider('KEY', vi.fn(reply));
    await expect(provider.lookup({ lat: 30.2672, lng: -97.7431 })).resolves.toBeNull();
  });

  it('never asks for a point out of range', async () => {
    const fetch = vi.fn(async () => answer(200, W3W_ANSWER));
    await expect(what3wordsProvider('KEY', fetch).lookup({ lat: 91, lng: 0 })).resolves.toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('uses VITE_WHAT3WORDS_API_KEY; without it every point is "not found" and nothing is fetched', async () => {
    const fetch = vi.fn(async (_url: string) => answer(200, W3W_ANSWER));
    await expect(threeWordProviderFromEnv({ VITE_WHAT3WORDS_API_KEY: ' KEY ' }, fetch).lookup({ lat: 1, lng: 2 })).resolves.toBe(
      'index.home.raft',
    );
    expect(fetch.mock.calls[0]?.[0]).toBe(
      'https://api.what3words.com/v3/convert-to-3wa?coordinates=1.0000000,2.0000000&language=en&key=KEY',
    );
    fetch.mockClear();
    const none = threeWordProviderFromEnv({}, fetch);
    expect(none).toBe(noThreeWordProvider);
    await expect(none.lookup({ lat: 1, lng: 2 })).resolves.toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('what3wordsUrl truncates the coordinates to 7 decimals', () => {
    expect(what3wordsUrl({ lat: 30.123456789, lng: -97.987654321 }, 'k')).toBe(
      'https://api.what3words.com/v3/convert-to-3wa?coordinates=30.1234567,-97.9876543&language=en&key=k',
    );
  });
});
