/**
 * Fetches an outside WZDx feed for the import (server/jobs/wzdx-import.ts) within its limits: the
 * whole fetch ends within `timeoutMs`, and a body larger than `maxBytes` is refused — by its
 * Content-Length before reading, or while streaming, so no more than the limit is ever held.
 * Every failure is a `FeedFetchError` whose message is fit to show a user.
 *
 * A subscription is a URL a user typed, fetched by the server: unless `allowPrivate`, each address
 * (the first and every redirect, at most MAX_REDIRECTS) must resolve only to public addresses, so a
 * subscription cannot make the server read its own machine or network (OWASP SSRF). The check
 * resolves the name before the request; a name that changes its answer between the check and the
 * connection (DNS rebinding) is not covered: closed networks keep WZDX_FETCH_ALLOW_PRIVATE off and
 * an egress firewall in front.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { WzdxFetchLimits } from '../config';

export class FeedFetchError extends Error {
  override readonly name = 'FeedFetchError';
}

const MB = 1024 * 1024;
/** Errors of a reused connection the other end had closed (undici's and Node's codes). */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

const MAX_REDIRECTS = 5;

/** Loopback, private, shared, link-local, documentation, benchmark, multicast and reserved ranges (IANA special-purpose registries). */
const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, 'ipv6');
}

/** Whether an address is one a public feed cannot have (IPv4-mapped IPv6 read as its IPv4). */
export function isNonPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return NON_PUBLIC.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Shown to the organization's administrator: their words, not the server's setting (docs/configuration.md names it). */
const PRIVATE_TEXT = (host: string) =>
  `The feed's address (${host}) is on a local or private network, which this server does not fetch. Ask whoever runs Lightbar to allow it.`;

/** Refuses a URL that is not http(s) or whose host resolves to any non-public address. */
async function checkAddress(url: URL, allowPrivate: boolean): Promise<void> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FeedFetchError('The feed must be an http or https address');
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch (error) {
    throw new FeedFetchError(`The feed could not be reached (${causeOf(error)})`);
  }
  if (addresses.length === 0 || addresses.some(isNonPublicAddress)) throw new FeedFetchError(PRIVATE_TEXT(url.hostname));
}

/** '5 MB', '512 KB', '100 bytes'. */
export function sizeText(bytes: number): string {
  if (bytes >= MB) return `${Math.round((bytes / MB) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${bytes} bytes`;
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** The feed's body as text; throws FeedFetchError with the reason. */
export async function fetchFeedText(url: string, limits: WzdxFetchLimits): Promise<string> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, limits.timeoutMs);
  const tooSlow = () => new FeedFetchError(`The feed did not answer within ${limits.timeoutMs / 1000} seconds`);
  const tooLarge = () => new FeedFetchError(`The feed is larger than ${sizeText(limits.maxBytes)} and was not read`);
  try {
    let response: Response | null = null;
    let target = new URL(url);
    for (let hop = 0; response === null; hop += 1) {
      await checkAddress(target, limits.allowPrivate);
      let answer: Response | null = null;
      for (let attempt = 1; answer === null; attempt += 1) {
        try {
          answer = await fetch(target, {
            signal: controller.signal,
            // Each redirect's address is checked like the first one.
            redirect: 'manual',
            headers: { accept: 'application/geo+json, application/json;q=0.9, */*;q=0.1' },
          });
        } catch (error) {
          if (timedOut) throw tooSlow();
          // A kept-alive connection the feed's server closed meanwhile fails at once: a GET is safe to send again, once.
          if (attempt === 1 && STALE_CONNECTION.has(causeOf(error))) continue;
          throw new FeedFetchError(`The feed could not be reached (${causeOf(error)})`);
        }
      }
      const location = answer.headers.get('location');
      if (answer.status >= 300 && answer.status < 400 && location) {
        await answer.body?.cancel().catch(() => undefined);
        if (hop >= MAX_REDIRECTS) throw new FeedFetchError(`The feed redirected more than ${MAX_REDIRECTS} times`);
        target = new URL(location, target);
        continue;
      }
      response = answer;
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new FeedFetchError(`The feed answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
    }
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > limits.maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge();
    }
    if (!response.body) return '';
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let received = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        received += value.byteLength;
        if (received > limits.maxBytes) {
          await reader.cancel().catch(() => undefined);
          throw tooLarge();
        }
        chunks.push(value);
      }
    } catch (error) {
      if (error instanceof FeedFetchError) throw error;
      if (timedOut) throw tooSlow();
      throw new FeedFetchError(`The feed could not be read (${causeOf(error)})`);
    }
    return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
  } finally {
    clearTimeout(timer);
  }
}
