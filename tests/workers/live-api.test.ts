/**
 * The live worker's REST calls under a busy server (src/workers/live-api.ts): load shedding answers
 * 503 `overloaded` with Retry-After; the worker makes the same call again after that wait, with the
 * token handed over last, a few times, before the load counts as failed.
 */
import { THINGS_PAGE_MAX } from '../../src/domain/constants';
import { describe, expect, it } from 'vitest';
import { BUSY_RETRIES, BUSY_WAIT_MAX_MS, BUSY_WAIT_MS, busyWaitMs, LiveApi } from '../../src/workers/live-api';

const page = { data: [], meta: { page: 1, per_page: 500, total: 0, server_timestamp: '2026-11-27T12:00:00.000Z', deleted_ids: [] } };
const busy = (retryAfter?: string) =>
  new Response(JSON.stringify({ error: 'overloaded' }), {
    status: 503,
    headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  });

function apiWith(answers: (() => Response)[]) {
  const calls: string[] = [];
  const waits: number[] = [];
  let token = 'token-1';
  const api = new LiveApi({
    apiBase: 'http://api.test',
    token: () => token,
    orgIds: [],
    perPage: THINGS_PAGE_MAX,
    fetch: async (_url, init) => {
      calls.push((init.headers as Record<string, string>).authorization!);
      const answer = answers.shift();
      if (!answer) throw new Error('no more answers');
      return answer();
    },
    wait: async (ms) => {
      waits.push(ms);
      token = `token-${waits.length + 1}`;
    },
  });
  return { api, calls, waits };
}

describe('a busy server during the live load', () => {
  it('a page answered 503 with Retry-After is fetched again after that wait, with the newest token', async () => {
    const { api, calls, waits } = apiWith([() => busy('3'), () => busy('1'), () => Response.json(page)]);
    await expect(api.thingsPage(1, null)).resolves.toMatchObject({ page: 1, pages: 1, things: [] });
    expect(waits).toEqual([3_000, 1_000]);
    expect(calls).toEqual(['Bearer token-1', 'Bearer token-2', 'Bearer token-3']);
  });

  it(`after ${BUSY_RETRIES} more busy answers the call fails (the load then fails and polling starts it over)`, async () => {
    const { api, calls, waits } = apiWith(Array.from({ length: BUSY_RETRIES + 1 }, () => () => busy()));
    await expect(api.thingsPage(1, null)).rejects.toThrow('/organization/things answered 503');
    expect(calls).toHaveLength(BUSY_RETRIES + 1);
    expect(waits).toEqual(Array.from({ length: BUSY_RETRIES }, () => BUSY_WAIT_MS));
  });

  it('502 and 504 from a proxy are waited out the same way; a 500 is not', async () => {
    const gateway = apiWith([() => new Response('', { status: 502 }), () => new Response('', { status: 504 }), () => Response.json(page)]);
    await expect(gateway.api.thingsPage(1, null)).resolves.toMatchObject({ page: 1 });
    const broken = apiWith([() => new Response('', { status: 500 })]);
    await expect(broken.api.thingsPage(1, null)).rejects.toThrow('answered 500');
    expect(broken.waits).toEqual([]);
  });

  it('the wait: Retry-After seconds within 30 s; none, a date or nonsense: 2 s', () => {
    expect(busyWaitMs('10')).toBe(10_000);
    expect(busyWaitMs(' 0 ')).toBe(0);
    expect(busyWaitMs('3600')).toBe(BUSY_WAIT_MAX_MS);
    expect(busyWaitMs(null)).toBe(BUSY_WAIT_MS);
    expect(busyWaitMs('Wed, 21 Oct 2026 07:28:00 GMT')).toBe(BUSY_WAIT_MS);
    expect(busyWaitMs('-5')).toBe(BUSY_WAIT_MS);
  });
});
