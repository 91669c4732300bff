/** part 1 §7 "All calls use a bearer authorization header ... and JSON bodies"; §4 any 401 signs out; §8 errors. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, createApiClient, deleteOrGone } from '../../src/app/api-client';
import { createAppServices } from '../../src/app/services';
import { MOBILE_QUERY } from '../../src/app/shell/use-media';
import { MOBILE_CLIENT_HEADER } from '../../server/http/closures/schema';

function client(answer: () => Response | Promise<Response>, token: string | null = 'tok') {
  const onUnauthorized = vi.fn();
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => answer());
  const api = createApiClient({ getToken: () => token, onUnauthorized, fetch: fetchMock as unknown as typeof fetch });
  return { api, onUnauthorized, fetchMock };
}

const ok = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
/** Headers arrived, then the body's stream failed: what the browser gives when a navigation aborts a call mid-answer. */
const cutOff = (status: number) =>
  new Response(
    new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"id":'));
        controller.error(new DOMException('The user aborted a request.', 'AbortError'));
      },
    }),
    { status },
  );

describe('api client', () => {
  it('sends the bearer token, a JSON body and the query; parses the answer', async () => {
    const { api, fetchMock } = client(() => ok({ count: 3 }));
    const answer = await api.request('/organization/things', {
      method: 'POST',
      body: { a: 1 },
      query: { 'org_ids[]': ['o1', 'o2'], page: 2 },
      schema: z.object({ count: z.number() }),
    });
    expect(answer).toEqual({ count: 3 });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/organization/things?org_ids%5B%5D=o1&org_ids%5B%5D=o2&page=2');
    expect(init?.headers).toMatchObject({ authorization: 'Bearer tok', 'content-type': 'application/json' });
    expect(init?.body).toBe('{"a":1}');
  });

  it('sends no bearer header on the unauthenticated calls', async () => {
    const { api, fetchMock } = client(() => ok({}));
    await api.request('/forgot_password', { method: 'POST', body: { email: 'x' }, auth: false });
    expect(fetchMock.mock.calls[0]![1]?.headers).not.toHaveProperty('authorization');
  });

  it('part1 §4: a 401 on an authenticated call signs out; on sign-in it is the answer', async () => {
    const { api, onUnauthorized } = client(() => ok({ error: 'unauthorized' }, 401));
    await expect(api.request('/profile')).rejects.toBeInstanceOf(ApiError);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    await expect(api.request('/user_token', { method: 'POST', auth: false, context: 'signIn' })).rejects.toMatchObject({
      message: 'Unknown failure.',
    });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it.each<[string, () => Response | Promise<Response>, string]>([
    ['no answer', () => Promise.reject(new TypeError('Failed to fetch')), 'Connection failed.'],
    ['500', () => ok({}, 500), 'Unknown failure.'],
    ['an answer whose body is cut off (a reload aborts it)', () => cutOff(200), 'Connection failed.'],
    ['an answer its schema refuses', () => ok({ count: 'x' }), 'Unknown failure.'],
  ])('part1 §8 general: %s → %s', async (_name, answer, text) => {
    const { api } = client(answer);
    await expect(api.request('/x', { schema: z.object({ count: z.number() }) })).rejects.toMatchObject({ message: text });
  });

  it('part1 §4: an answer cut off mid-body is no answer: status 0, and the session is not signed out', async () => {
    const { api, onUnauthorized } = client(() => cutOff(200));
    await expect(api.request('/profile', { schema: z.object({ id: z.string() }) })).rejects.toMatchObject({ status: 0, code: null });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it("reads the server's code and message (error, error_description | message) for the catalogue", async () => {
    const { api } = client(() => ok({ error: 'locked_out', error_description: 'Locked for now.' }, 401));
    const error = (await api
      .request('/user_token', { method: 'POST', auth: false, context: 'signIn' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.failure).toEqual({ status: 401, code: 'locked_out', message: 'Locked for now.' });
    expect(error.userError.text).toBe('Locked for now.');
  });
});

describe('part 2 §7 a DELETE whose 404 counts as deleted', () => {
  it('resolves on 200 and on 404; any other failure is the catalogue text of its context', async () => {
    const done = client(() => ok({ id: 'a1' }));
    await expect(deleteOrGone(done.api, '/organization/exclusion_zone/a1', 'areaDelete')).resolves.toBeUndefined();
    expect(done.fetchMock.mock.calls[0]![1]?.method).toBe('DELETE');
    const gone = client(() => ok({ error: 'not_found', message: 'Area not found' }, 404));
    await expect(deleteOrGone(gone.api, '/organization/exclusion_zone/a1', 'areaDelete')).resolves.toBeUndefined();
    const refused = client(() => ok({ error: 'unprocessable', message: 'nope' }, 500));
    const error = await deleteOrGone(refused.api, '/organization/exclusion_zone/a1', 'areaDelete').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(500);
  });
});

describe('part2 §6 the mobile client says so to the server', () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    ['at a phone width', true, 'mobile'],
    ['at a desktop width', false, undefined],
  ])('%s every call carries X-Lightbar-Client: %s', async (_width, phone, value) => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: phone && query === MOBILE_QUERY }));
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => ok({}));
    const services = createAppServices({ fetch: fetchMock as unknown as typeof fetch, storage: null, createBridge: null, channel: false });
    await services.api.request('/organization/closure', { method: 'POST', body: {} });
    await services.api.request('/forgot_password', { method: 'POST', body: { email: 'x' }, auth: false });
    for (const [, init] of fetchMock.mock.calls) {
      // The header the server reads (server/http/closures/).
      expect((init?.headers as Record<string, string>)[MOBILE_CLIENT_HEADER]).toBe(value);
    }
  });
});
