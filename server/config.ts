import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { EMAIL_PATTERN } from '../src/domain/validation/fields';
import { DEFAULT_SIM_SEED } from './region/random';

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
  /** pino's level for the request and server log; 'silent' logs nothing. */
  logLevel: LogLevel;
  /** GET /metrics asks `Authorization: Bearer <token>` when set (METRICS_TOKEN); unset: open, like /health. */
  metricsToken: string | undefined;
  /**
   * The key of the short-lived download links (server/auth/signed-links.ts); unset, one is generated
   * once into DATA_DIR. Processes that share a database must share it (docs/deployment.md).
   */
  fileLinkSecret: string | undefined;
  /**
   * The first administrator made on an empty database (LIGHTBAR_ADMIN_EMAIL, LIGHTBAR_ADMIN_ORGANIZATION:
   * server/seed/first-admin.ts); undefined without LIGHTBAR_ADMIN_EMAIL.
   */
  firstAdmin: { email: string; organization: string } | undefined;
  /**
   * On SIGTERM, how long /ready answers 503 'draining' while the server still serves, so that a proxy
   * checking /ready sends new clients elsewhere before sockets are closed (SHUTDOWN_DRAIN_MS).
   */
  shutdownDrainMs: number;
  /** The demo fleet's size (SIM_ASSETS); undefined: the demo's default. */
  simAssets: number | undefined;
  /** How often the simulator flips a demo alerting zone, ms (SIM_ZONE_FLIP_MS; 0: never; undefined: its default). */
  simZoneFlipMs: number | undefined;
  /** The demo seed's and the simulator's random seed (SIM_SEED): the same seed, the same demo. */
  simSeed: number;
  /** Trip points older than this many days are deleted (POINT_RETENTION_DAYS). */
  pointRetentionDays: number;
}

/** POINT_RETENTION_DAYS when unset. */
export const POINT_RETENTION_DAYS_DEFAULT = 30;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface ProviderUrls {
  samsara: string;
  geotab: string;
}

/** The providers' public APIs (part 2 §9 "two fleet telematics providers"). */
export const PROVIDER_URL_DEFAULTS: ProviderUrls = {
  samsara: 'https://api.samsara.com',
  geotab: 'https://my.geotab.com/apiv1',
};

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

/** What a variable's parse answers for a value it does not accept. */
const INVALID = Symbol('invalid');
type Parse<T> = (raw: string) => T | typeof INVALID;

/**
 * One variable of the environment: unset or blank gives `fallback`; a value `parse` refuses stops
 * the start with "NAME must be <rule>, got "<value>"" (the rule is the issue's message).
 */
function variable<T, F = T>(rule: string, parse: Parse<T>, fallback: F) {
  return z
    .string()
    .optional()
    .transform((raw, context): T | F => {
      const value = raw?.trim();
      if (value === undefined || value === '') return fallback;
      const parsed = parse(value);
      if (parsed === INVALID) {
        context.addIssue({ code: 'custom', message: rule });
        return z.NEVER;
      }
      return parsed;
    });
}

const text: Parse<string> = (raw) => raw;
const flag: Parse<boolean> = (raw) => (raw === '1' || raw === 'true' ? true : raw === '0' || raw === 'false' ? false : INVALID);
const FLAG_RULE = '0 or 1';
/** A number `valid` accepts (Number() of the text: '5MB' and '' are refused). */
const numberWhere =
  (valid: (value: number) => boolean): Parse<number> =>
  (raw) => {
    const value = Number(raw);
    return Number.isFinite(value) && valid(value) ? value : INVALID;
  };
const wholeFrom = (min: number) => numberWhere((value) => Number.isInteger(value) && value >= min);
/** A URL with one of `protocols` (each with its colon), no query or fragment when `bare`. */
const urlWith =
  (protocols: readonly string[], bare = false): Parse<string> =>
  (raw) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return INVALID;
    }
    if (!protocols.includes(url.protocol) || (bare && (url.search || url.hash))) return INVALID;
    return raw;
  };
/** An http(s) base URL without a trailing slash (a typo must not surface as every call failing to connect). */
const baseUrl: Parse<string> = (raw) => (urlWith(['http:', 'https:'], true)(raw) === INVALID ? INVALID : raw.replace(/\/+$/, ''));
const BASE_URL_RULE = 'an http or https URL without a query';

/**
 * TRUST_PROXY (a typo must not silently trust every forwarded header, nor none). Never believing
 * X-Forwarded-For without it: a client could forge one per request and dodge the per-address
 * sign-in limit (OWASP Authentication).
 */
const trustProxy: Parse<boolean | number | string[]> = (value) => {
  if (value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  return entries.every(isAddressOrRange) ? entries : INVALID;
};

/**
 * Every variable the server reads at start, in one schema (docs/configuration.md lists them): a
 * wrong value stops the start naming the variable and what it accepts, every wrong one at once.
 */
const ENVIRONMENT = z.object({
  PORT: variable(
    'an integer from 0 to 65535',
    numberWhere((v) => Number.isInteger(v) && v >= 0 && v <= 65_535),
    8080,
  ),
  HOST: variable('a host name or address', text, '0.0.0.0'),
  DATA_DIR: variable('a folder', text, path.join(ROOT_DIR, 'data')),
  DIST_DIR: variable('a folder', text, path.join(ROOT_DIR, 'dist')),
  LIGHTBAR_VERSION: variable('a version', text, undefined),
  DATABASE_URL: variable('a postgres:// or postgresql:// URL', urlWith(['postgres:', 'postgresql:']), undefined),
  NATS_URL: variable(
    'a nats://, tls://, ws:// or wss:// URL, or several separated by commas',
    (raw) => (raw.split(',').every((one) => urlWith(['nats:', 'tls:', 'ws:', 'wss:'])(one.trim()) !== INVALID) ? raw : INVALID),
    undefined,
  ),
  SMTP_URL: variable('an smtp:// or smtps:// URL', urlWith(['smtp:', 'smtps:']), undefined),
  PUBLIC_URL: variable('an http or https URL', urlWith(['http:', 'https:']), undefined),
  LIGHTBAR_DEMO: variable(FLAG_RULE, flag, true),
  LIGHTBAR_ADMIN_EMAIL: variable('an e-mail address', (raw) => (EMAIL_PATTERN.test(raw) ? raw : INVALID), undefined),
  LIGHTBAR_ADMIN_ORGANIZATION: variable('a name', (raw) => (raw.trim() ? raw.trim() : INVALID), 'Lightbar'),
  AUTH_RATE_LIMIT: variable('a whole number of requests a minute from 1', wholeFrom(1), 30),
  TRUST_PROXY: variable(TRUST_PROXY_RULE, trustProxy, false as boolean | number | string[]),
  BASEMAP_PMTILES: variable('a file', text, undefined),
  SAMSARA_API_URL: variable(BASE_URL_RULE, baseUrl, PROVIDER_URL_DEFAULTS.samsara),
  GEOTAB_API_URL: variable(BASE_URL_RULE, baseUrl, PROVIDER_URL_DEFAULTS.geotab),
  WZDX_FETCH_TIMEOUT_MS: variable('a whole number of milliseconds from 1', wholeFrom(1), WZDX_FETCH_DEFAULTS.timeoutMs),
  WZDX_FETCH_MAX_BYTES: variable('a whole number of bytes from 1', wholeFrom(1), WZDX_FETCH_DEFAULTS.maxBytes),
  WZDX_FETCH_ALLOW_PRIVATE: variable(FLAG_RULE, flag, WZDX_FETCH_DEFAULTS.allowPrivate),
  PRESSURE_MAX_EVENT_LOOP_DELAY_MS: variable(
    'a number of milliseconds (0 turns it off)',
    numberWhere((v) => v >= 0),
    PRESSURE_DEFAULTS.maxEventLoopDelayMs,
  ),
  PRESSURE_MAX_EVENT_LOOP_UTILIZATION: variable(
    'from 0 to 1 (0 turns it off)',
    numberWhere((v) => v >= 0 && v <= 1),
    PRESSURE_DEFAULTS.maxEventLoopUtilization,
  ),
  PRESSURE_RETRY_AFTER_S: variable('a whole number of seconds from 1', wholeFrom(1), PRESSURE_DEFAULTS.retryAfterS),
  PRESSURE_SAMPLE_MS: variable('a whole number of milliseconds from 10', wholeFrom(10), PRESSURE_DEFAULTS.sampleMs),
  PRESSURE_MAX_IN_FLIGHT: variable(
    'a whole number of calls from 0 (0 sheds every API call under pressure)',
    wholeFrom(0),
    PRESSURE_DEFAULTS.maxInFlight,
  ),
  LOG_LEVEL: variable(
    `one of ${LOG_LEVELS.join(', ')}`,
    (raw) => (LOG_LEVELS.includes(raw as LogLevel) ? (raw as LogLevel) : INVALID),
    'info' as LogLevel,
  ),
  METRICS_TOKEN: variable('at least 16 characters', (raw) => (raw.length >= 16 ? raw : INVALID), undefined),
  FILE_LINK_SECRET: variable('at least 32 characters', (raw) => (raw.length >= 32 ? raw : INVALID), undefined),
  SHUTDOWN_DRAIN_MS: variable('a whole number of milliseconds from 0', wholeFrom(0), 0),
  SIM_ASSETS: variable('a whole number', wholeFrom(0), undefined),
  SIM_ZONE_FLIP_MS: variable('a whole number of ms', wholeFrom(0), undefined),
  SIM_SEED: variable('an integer', numberWhere(Number.isInteger), DEFAULT_SIM_SEED),
  POINT_RETENTION_DAYS: variable(
    'a positive number of days',
    numberWhere((v) => v > 0),
    POINT_RETENTION_DAYS_DEFAULT,
  ),
});

/** The environment through the schema; every refused variable in one error, one line each. */
function readEnvironment(env: NodeJS.ProcessEnv): z.output<typeof ENVIRONMENT> {
  const result = ENVIRONMENT.safeParse(env);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const name = String(issue.path[0]);
    return `${name} must be ${issue.message}, got "${env[name]}"`;
  });
  throw new Error(lines.join('\n'));
}

/** Reads the environment once (docs/configuration.md lists every variable). */
export function readConfig(env: NodeJS.ProcessEnv = process.env, version = '0.0.0'): ServerConfig {
  const vars = readEnvironment(env);
  return {
    port: vars.PORT,
    host: vars.HOST,
    dataDir: path.resolve(vars.DATA_DIR),
    distDir: path.resolve(vars.DIST_DIR),
    // A deployment may stamp its build (LIGHTBAR_VERSION); GET /version answers it and open pages offer a reload (part 1 §2).
    version: vars.LIGHTBAR_VERSION ?? version,
    databaseUrl: vars.DATABASE_URL,
    smtpUrl: vars.SMTP_URL,
    natsUrl: vars.NATS_URL,
    publicUrl: (vars.PUBLIC_URL ?? `http://localhost:${vars.PORT || 8080}`).replace(/\/$/, ''),
    demo: vars.LIGHTBAR_DEMO,
    authRateLimit: vars.AUTH_RATE_LIMIT,
    trustProxy: vars.TRUST_PROXY,
    basemapPmtiles: vars.BASEMAP_PMTILES ? path.resolve(vars.BASEMAP_PMTILES) : undefined,
    providers: { samsara: vars.SAMSARA_API_URL, geotab: vars.GEOTAB_API_URL },
    wzdxFetch: {
      timeoutMs: vars.WZDX_FETCH_TIMEOUT_MS,
      maxBytes: vars.WZDX_FETCH_MAX_BYTES,
      allowPrivate: vars.WZDX_FETCH_ALLOW_PRIVATE,
    },
    pressure: {
      maxEventLoopDelayMs: vars.PRESSURE_MAX_EVENT_LOOP_DELAY_MS,
      maxEventLoopUtilization: vars.PRESSURE_MAX_EVENT_LOOP_UTILIZATION,
      retryAfterS: vars.PRESSURE_RETRY_AFTER_S,
      sampleMs: vars.PRESSURE_SAMPLE_MS,
      maxInFlight: vars.PRESSURE_MAX_IN_FLIGHT,
    },
    logLevel: vars.LOG_LEVEL,
    metricsToken: vars.METRICS_TOKEN,
    fileLinkSecret: vars.FILE_LINK_SECRET,
    firstAdmin: vars.LIGHTBAR_ADMIN_EMAIL
      ? { email: vars.LIGHTBAR_ADMIN_EMAIL, organization: vars.LIGHTBAR_ADMIN_ORGANIZATION }
      : undefined,
    shutdownDrainMs: vars.SHUTDOWN_DRAIN_MS,
    simAssets: vars.SIM_ASSETS,
    simZoneFlipMs: vars.SIM_ZONE_FLIP_MS,
    simSeed: vars.SIM_SEED >>> 0,
    pointRetentionDays: vars.POINT_RETENTION_DAYS,
  };
}
