import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, whatever the working directory. */
export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ServerConfig {
  port: number;
  host: string;
  /** The embedded database and generated files live here. */
  dataDir: string;
  /** The built app (`vite build` output). */
  distDir: string;
  version: string;
  /** Postgres server; unset: PGlite in `dataDir`. */
  databaseUrl: string | undefined;
  /** NATS server for fan-out between server processes; unset: in-process. */
  natsUrl: string | undefined;
  /** nodemailer transport URL; unset: mail goes to the outbox table and the log only. */
  smtpUrl: string | undefined;
  /** The address links in mails point to. */
  publicUrl: string;
  /** Seed the demo organizations and users on an empty database (LIGHTBAR_DEMO=0 turns it off). */
  demo: boolean;
  /** Requests per minute per address on sign-in, forgot and unlock. */
  authRateLimit: number;
  /**
   * Fastify's trustProxy: whom to believe for X-Forwarded-For (the client's address in per-address
   * limits and logs). false: nobody, the connection's address counts.
   */
  trustProxy: boolean | number | string[];
  /** A self-hosted PMTiles basemap (BASEMAP_PMTILES); unset: the demo road network's tiles. */
  basemapPmtiles: string | undefined;
  /** Load shedding (`@fastify/under-pressure`): above either threshold API calls answer 503 with Retry-After. */
  pressure: PressureConfig;
  /** The fleet telematics providers' API base URLs, no trailing slash (SAMSARA_API_URL, GEOTAB_API_URL). */
  providers: ProviderUrls;
  /** The WZDx feed import's fetch limits (server/wzdx/fetch-feed.ts). */
  wzdxFetch: WzdxFetchLimits;
}

export interface ProviderUrls {
  samsara: string;
  geotab: string;
}

/** The providers' public APIs (part 2 §9 "two fleet telematics providers"). */
export const PROVIDER_URL_DEFAULTS: ProviderUrls = {
  samsara: 'https://api.samsara.com',
  geotab: 'https://my.geotab.com/apiv1',
};

/** An http(s) base URL, checked at start (a typo must not surface as every test failing to connect). */
function baseUrlFrom(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
    throw new Error(`${name} must be an http or https URL without a query, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

export interface WzdxFetchLimits {
  /** The whole fetch (answer and body) must end within this many ms. */
  timeoutMs: number;
  /** A body larger than this is refused without reading further. */
  maxBytes: number;
  /**
   * Whether a feed on a loopback, private, link-local or other non-public address may be fetched
   * (WZDX_FETCH_ALLOW_PRIVATE=1). Off by default: a subscription must not make the server read its
   * own network (server-side request forgery); tests and closed networks turn it on.
   */
  allowPrivate: boolean;
}

export const WZDX_FETCH_DEFAULTS: WzdxFetchLimits = { timeoutMs: 15_000, maxBytes: 5 * 1024 * 1024, allowPrivate: false };

export interface PressureConfig {
  /** Mean event-loop delay in ms over a sample (0: not checked). */
  maxEventLoopDelayMs: number;
  /** Event-loop utilization, 0–1, over a sample (0: not checked). */
  maxEventLoopUtilization: number;
  /** Seconds a shed client is told to wait (Retry-After). */
  retryAfterS: number;
  /** How often the load is sampled, in ms. */
  sampleMs: number;
  /**
   * Under pressure, an API call is shed only when this many others are already in progress (0:
   * every API call is shed). One client's calls one after another are never a queue.
   */
  maxInFlight: number;
}

/**
 * Defaults: timers a second late on average, or a loop busy 98 % of a sample, means requests queue
 * faster than they drain. A queue of 500-asset lists (tens of ms of loop time each) keeps the delay
 * low but the loop saturated, so utilization is the signal that catches it. Answering 503 at once
 * beats answering 200 after the client gave up. But a saturated loop is not yet a queue: one
 * dashboard loading a large fleet asks its pages one or two at a time and keeps the loop busy by
 * itself (shed, it waited Retry-After's 10 s every few pages: 175 s for 100,000 assets instead of
 * 36 s of work); and while devices' ingest keeps the loop busy, every page and the profile itself
 * were shed. So a call is shed only when `maxInFlight` API calls are already in progress.
 */
export const PRESSURE_DEFAULTS: PressureConfig = {
  maxEventLoopDelayMs: 1_000,
  maxEventLoopUtilization: 0.98,
  retryAfterS: 10,
  sampleMs: 1_000,
  maxInFlight: 4,
};

const TRUST_PROXY_RULE = 'true, a hop count (a whole number from 0), or a comma-separated list of addresses or CIDR ranges';

/** One address, or a CIDR range with a prefix the address family allows. */
function isAddressOrRange(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY, checked at start (a typo must not silently trust every forwarded header, nor none).
 * Never believing X-Forwarded-For without it: a client could forge one per request and dodge the
 * per-address sign-in limit (OWASP Authentication).
 */
export function parseTrustProxy(raw: string | undefined): boolean | number | string[] {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  if (entries.every(isAddressOrRange)) return entries;
  throw new Error(`TRUST_PROXY must be ${TRUST_PROXY_RULE}, got "${raw}"`);
}

/** A 0/1 (or false/true) setting; anything else stops the start. */
function flagFrom(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  throw new Error(`${name} must be 0 or 1, got "${raw}"`);
}

function numberFrom(env: NodeJS.ProcessEnv, name: string, fallback: number, valid: (value: number) => boolean, rule: string): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || !valid(value)) throw new Error(`${name} must be ${rule}, got "${raw}"`);
  return value;
}

/** Reads the environment once; every variable is listed in README "Configuration". */
export function readConfig(env: NodeJS.ProcessEnv = process.env, version = '0.0.0'): ServerConfig {
  const port = env.PORT === undefined || env.PORT === '' ? 8080 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`PORT must be an integer from 0 to 65535, got "${env.PORT}"`);
  }
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || path.join(ROOT_DIR, 'data')),
    distDir: path.resolve(env.DIST_DIR || path.join(ROOT_DIR, 'dist')),
    // A deployment may stamp its build (LIGHTBAR_VERSION); GET /version answers it and open pages offer a reload (part 1 §2).
    version: env.LIGHTBAR_VERSION || version,
    databaseUrl: env.DATABASE_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    natsUrl: env.NATS_URL || undefined,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port || 8080}`).replace(/\/$/, ''),
    demo: env.LIGHTBAR_DEMO !== '0',
    authRateLimit: Number(env.AUTH_RATE_LIMIT || 30),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    basemapPmtiles: env.BASEMAP_PMTILES ? path.resolve(env.BASEMAP_PMTILES) : undefined,
    providers: {
      samsara: baseUrlFrom(env, 'SAMSARA_API_URL', PROVIDER_URL_DEFAULTS.samsara),
      geotab: baseUrlFrom(env, 'GEOTAB_API_URL', PROVIDER_URL_DEFAULTS.geotab),
    },
    wzdxFetch: {
      timeoutMs: numberFrom(
        env,
        'WZDX_FETCH_TIMEOUT_MS',
        WZDX_FETCH_DEFAULTS.timeoutMs,
        (v) => Number.isInteger(v) && v >= 1,
        'a whole number of milliseconds from 1',
      ),
      maxBytes: numberFrom(
        env,
        'WZDX_FETCH_MAX_BYTES',
        WZDX_FETCH_DEFAULTS.maxBytes,
        (v) => Number.isInteger(v) && v >= 1,
        'a whole number of bytes from 1',
      ),
      allowPrivate: flagFrom(env, 'WZDX_FETCH_ALLOW_PRIVATE', WZDX_FETCH_DEFAULTS.allowPrivate),
    },
    pressure: {
      maxEventLoopDelayMs: numberFrom(
        env,
        'PRESSURE_MAX_EVENT_LOOP_DELAY_MS',
        PRESSURE_DEFAULTS.maxEventLoopDelayMs,
        (v) => v >= 0,
        'a number of milliseconds (0 turns it off)',
      ),
      maxEventLoopUtilization: numberFrom(
        env,
        'PRESSURE_MAX_EVENT_LOOP_UTILIZATION',
        PRESSURE_DEFAULTS.maxEventLoopUtilization,
        (v) => v >= 0 && v <= 1,
        'from 0 to 1 (0 turns it off)',
      ),
      retryAfterS: numberFrom(
        env,
        'PRESSURE_RETRY_AFTER_S',
        PRESSURE_DEFAULTS.retryAfterS,
        (v) => Number.isInteger(v) && v >= 1,
        'a whole number of seconds from 1',
      ),
      sampleMs: numberFrom(
        env,
        'PRESSURE_SAMPLE_MS',
        PRESSURE_DEFAULTS.sampleMs,
        (v) => Number.isInteger(v) && v >= 10,
        'a whole number of milliseconds from 10',
      ),
      maxInFlight: numberFrom(
        env,
        'PRESSURE_MAX_IN_FLIGHT',
        PRESSURE_DEFAULTS.maxInFlight,
        (v) => Number.isInteger(v) && v >= 0,
        'a whole number of calls from 0 (0 sheds every API call under pressure)',
      ),
    },
  };
}
