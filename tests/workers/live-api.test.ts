/**
 * The live worker's REST calls under a busy server (src/workers/live-api.ts): load shedding answers
 * 503 `overloaded` with Retry-After; the worker makes the same call again after that wait, with the
 * token handed over last, a few times, before the load counts as failed.
 */
import { describe, expect, it } from 'vitest';
import { THINGS_PAGE_MAX, THINGS_PAGE_SIZE } from '../../src/domain/constants';
import { BUSY_RETRIES, BUSY_WAIT_MAX_MS, BUSY_WAIT_MS, busyWaitMs, LiveApi } from '../../src/workers/live-api';
import { thing } from '../support/live-fixtures';

const page = { data: [], meta: { page: 1, per_page: 500, total: 0, server_timestamp: '2026-11-27T12:00:00.000Z', deleted_ids: [] } };
const busy = (retryAfter?: string) =>
  new Response(JSON.stringify({ error: 'overloaded' }), {
    status: 503,
    headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  });

function apiWith(answers: (() => Response)[]) {
  const calls: string[] = [];
  const revalidated: (string | undefined)[] = [];
  const waits: number[] = [];
  let token = 'token-1';
  const api = new LiveApi({
    apiBase: 'http://api.test',
    token: () => token,
    orgIds: [],
    perPage: THINGS_PAGE_MAX,
    fetch: async (_url, init) => {
      calls.push((init.headers as Record<string, string>).authorization!);
      revalidated.push((init.headers as Record<string, string>)['if-none-match']);
      const answer = answers.shift();
      if (!answer) throw new Error('no more answers');
      return answer();
    },
    wait: async (ms) => {
      waits.push(ms);
      token = `token-${waits.length + 1}`;
    },
  });
  return { api, calls, revalidated, waits };
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

describe('revalidation keeps small answers only', () => {
  const answerOf = (count: number) => () =>
    Response.json(
      { ...page, data: Array.from({ length: count }, (_, i) => thing(i)), meta: { ...page.meta, per_page: THINGS_PAGE_MAX, total: count } },
      { headers: { etag: `W/"list-${count}"` } },
    );

  it(`a page of at most ${THINGS_PAGE_SIZE} assets is asked again with If-None-Match, and a 304 gives it back`, async () => {
    const { api, revalidated } = apiWith([answerOf(THINGS_PAGE_SIZE), () => new Response(null, { status: 304 })]);
    const first = await api.thingsPage(1, '2026-11-27T11:00:00.000Z');
    const again = await api.thingsPage(1, '2026-11-27T11:00:00.000Z');
    expect(revalidated).toEqual([undefined, `W/"list-${THINGS_PAGE_SIZE}"`]);
    expect(again).toEqual(first);
    expect(again.things).toHaveLength(THINGS_PAGE_SIZE);
  });

  it('a larger page (the initial load) is not kept: asked again, it is asked whole', async () => {
    const { api, revalidated } = apiWith([answerOf(THINGS_PAGE_SIZE + 1), answerOf(THINGS_PAGE_SIZE + 1)]);
    await api.thingsPage(1, null);
    expect((await api.thingsPage(1, null)).things).toHaveLength(THINGS_PAGE_SIZE + 1);
    expect(revalidated).toEqual([undefined, undefined]);
  });
});
