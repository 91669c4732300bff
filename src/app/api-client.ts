/**
 * The browser's HTTP client (part 1 §7): every call sends the stored token as a bearer header and
 * JSON bodies, parses the answer with a zod schema (CONVENTIONS §5), and turns a failure into an
 * ApiError carrying the catalogue's text (part 1 §8). A 401 on an authenticated call first asks the
 * session for a newer token (the call may have carried one a refresh rotated meanwhile) and is sent
 * once more with it; only a 401 that survives that signs out (part 1 §4 Session).
 */
import type { z } from 'zod';
import { MOBILE_CLIENT_HEADER, MOBILE_CLIENT_VALUE } from '../domain/constants';
import { ServiceError, errorText, type ErrorContext, type Failure, type UserError } from '../domain/errors';

export class ApiError extends Error implements Failure {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string | null,
    readonly serverMessage: string | null,
    readonly userError: UserError,
  ) {
    super(userError.text);
  }
  /** Failure's `message` is the server's text (errors.ts reads it). */
  get failure(): Failure {
    return { status: this.status, message: this.serverMessage, code: this.code };
  }
}

/**
 * The catalogue's text of any failure of a call (part 1 §8): the ApiError's own, a service's
 * failure (ServiceError: the directions service) in `context`, else "no answer" in `context`.
 */
export function userErrorOf(error: unknown, context: ErrorContext): UserError {
  if (error instanceof ApiError) return error.userError;
  if (error instanceof ServiceError) return errorText(context, error.failure);
  return errorText(context, { status: 0 });
}

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | readonly string[] | undefined>;
  /** Parses the answer; without it the answer is ignored. */
  schema?: z.ZodType<T>;
  /** Which row of the catalogue maps a failure (part 1 §8); default 'general'. */
  context?: ErrorContext;
  /** false: no bearer header and a 401 is the call's own answer (sign-in, forgot, reset...). */
  auth?: boolean;
  /**
   * A save's If-Match: the version of the record the form was opened on (lost updates,
   * docs/security.md); the server answers 412 when someone saved it since. null/absent: none sent.
   */
  ifMatch?: number | null;
}

export interface ApiClientOptions {
  /** The current access token (null when signed out). */
  getToken: () => string | null;
  /**
   * A 401 on a call that carried `refused`: resolves true when a newer token is there to send the
   * call again with (another tab or a refresh rotated it), false when none is (the caller gets the
   * 401; the session decides itself whether it ends). Without it, any 401 calls `onUnauthorized`.
   */
  renewToken?: (refused: string) => Promise<boolean>;
  /** part 1 §4: "Any 401 on an authenticated call marks the session unauthorized and signs out": one that survived a renewal. */
  onUnauthorized: () => void;
  fetch?: typeof fetch;
  base?: string;
  /** Whether the page is the mobile client now (the phone layout): its calls say so (MOBILE_CLIENT_HEADER). */
  isMobileClient?: () => boolean;
}

export interface ApiClient {
  request<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
}

/** A DELETE whose 404 counts as deleted (part 2 §7): the item is gone either way. */
export async function deleteOrGone(api: ApiClient, path: string, context: ErrorContext): Promise<void> {
  try {
    await api.request(path, { method: 'DELETE', context });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return;
    throw error;
  }
}

const errorBodyKeys = ['error_description', 'message'] as const;

function readFailure(status: number, body: unknown): Failure {
  if (!body || typeof body !== 'object') return { status };
  const record = body as Record<string, unknown>;
  const code = typeof record.error === 'string' ? record.error : null;
  let message: string | null = null;
  for (const key of errorBodyKeys) {
    const value = record[key];
    if (typeof value === 'string' && value) {
      message = value;
      break;
    }
  }
  return { status, code, message };
}

function toQuery(query: RequestOptions<unknown>['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const base = options.base ?? '';
  /** One call; `renewed`: this is the second try, with the token a renewal after a 401 gave. */
  async function send<T>(path: string, request: RequestOptions<T>, renewed: boolean): Promise<T> {
    const context = request.context ?? 'general';
    const auth = request.auth ?? true;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const token = auth ? options.getToken() : null;
    if (token) headers.authorization = `Bearer ${token}`;
    // part 2 §6: on a phone the server checks closure writes against the mobile permissions.
    if (options.isMobileClient?.()) headers[MOBILE_CLIENT_HEADER] = MOBILE_CLIENT_VALUE;
    if (typeof request.ifMatch === 'number') headers['if-match'] = `"${request.ifMatch}"`;
    const fail = (failure: Failure): ApiError =>
      new ApiError(failure.status ?? 0, failure.code ?? null, failure.message ?? null, errorText(context, failure));

    let response: Response;
    try {
      response = await doFetch(`${base}${path}${toQuery(request.query)}`, {
        method: request.method ?? 'GET',
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
      });
    } catch {
      throw fail({ status: 0 }); // no answer: 'Connection failed.'
    }
    // A body cut off on its way (the page navigates or reloads while it streams: the headers came,
    // the rest did not) is no answer either, never an answer its schema refuses: a profile cut off
    // by a reload right after sign-in must not end the session (part 1 §4, §8).
    let text: string;
    try {
      text = await response.text();
    } catch {
      throw fail({ status: 0 });
    }
    let body: unknown = null;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
    }
    if (!response.ok) {
      if (response.status === 401 && auth) {
        if (token && !renewed && options.renewToken) {
          if (await options.renewToken(token)) return send(path, request, true);
        } else options.onUnauthorized();
      }
      throw fail(readFailure(response.status, body));
    }
    if (!request.schema) return undefined as T;
    const parsed = request.schema.safeParse(body);
    if (!parsed.success) throw fail({ status: response.status, message: 'unexpected answer', code: 'invalid_answer' });
    return parsed.data;
  }
  return { request: (path, request = {}) => send(path, request, false) };
}
