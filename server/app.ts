import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import underPressure from '@fastify/under-pressure';
import type { ServerConfig } from './config';
import type { Database } from './db/connection';
import { createEvents, type Bus, type ServerDeps } from './deps';
import { createMailer, type Mailer } from './mail/mailer';
import { HttpError, installErrorHandler, OVERLOADED_MESSAGE } from './core/errors';
import { REDACT_PATHS, REDACTED, serializeRequest } from './http/log-redaction';
import { registerRoutes, type RouteServices } from './http/routes';
import { isAppFileRequest } from './http/spa';
import { connectNatsBus, InProcessBus } from './live/bus';
import { IngestEngine } from './live/ingest';
import { ServerMetrics } from './core/metrics';
import type { Lifecycle } from './http/health/routes';

export interface BuildOptions {
  logger?: boolean;
  /** Where the log goes instead of stdout (tests read it); implies `logger`. */
  logStream?: { write(line: string): void };
  /** The database; without one only /version and the app are served (used by the harness test). */
  database?: Database;
  /** A fixed clock for tests. */
  now?: () => Date;
  mailer?: Mailer;
  /** The live bus; default in-process, or NATS when `config.natsUrl` is set. */
  bus?: Bus;
}

/**
 * Map tiles, Google Maps and the three-word address service the browser may reach. The live socket
 * is the page's own origin: 'self' covers ws: and wss: to it (CSP Level 3), so no socket may open
 * to another host.
 */
const CONNECT_SOURCES = [
  "'self'",
  'https://tile.openstreetmap.org',
  'https://*.tile.openstreetmap.org',
  'https://*.googleapis.com',
  'https://*.gstatic.com',
  'https://api.what3words.com',
];

/**
 * Calls never shed under load: devices' ingest batches (their positions are the live map; the
 * ingest refuses a batch only when its own backlog is full, `IngestEngine.hasRoomFor`), the
 * socket (already open connections cost little; refusing them makes every browser poll instead),
 * and /version (a health check; open pages poll it to offer a reload, part 1 §2). Nor is the app
 * itself (its files and its routes' index.html, `isAppFileRequest`): its API calls are what shed.
 * Nor the operations calls (/health, /ready, /metrics): a proxy that cannot reach /ready takes the
 * process out of service, and a loaded process is what the metrics must show.
 */
const SERVICE_UNAVAILABLE = 503;
const PRESSURE_EXEMPT = new Set(['/ingest', '/cable', '/version', '/health', '/ready', '/metrics']);

/**
 * TRUST_PROXY for Fastify. A hop count trusts that many addresses from the connection's end of
 * X-Forwarded-For (Express's meaning); Fastify 5 reads a bare number as "trust nobody", because a
 * client that reaches the server directly could forge the header: docs/configuration.md says to use a count (or
 * true) only when the server is reachable through the proxy alone, and addresses otherwise.
 */
function trustProxyOption(value: ServerConfig['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof value !== 'number') return value;
  return (_address, hop) => hop < value;
}

/** Smaller answers are sent as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/** The cache policy of every API answer. */
export const NO_STORE = 'no-store';

/** Builds the server without listening, so tests drive it with `inject`. */
export type LightbarServer = FastifyInstance & { deps?: ServerDeps; ingest?: IngestEngine; lifecycle: Lifecycle; metrics: ServerMetrics };

export async function buildServer(config: ServerConfig, opts: BuildOptions = {}): Promise<LightbarServer> {
  const logging = opts.logger === true || opts.logStream !== undefined;
  const app = Fastify({
    // OWASP Logging: the request log never holds a token, password or API key (./http/log-redaction).
    logger: logging
      ? {
          // LOG_LEVEL (pino's levels); 'silent' turns the logger off altogether (server/main.ts).
          ...(config.logLevel && config.logLevel !== 'silent' ? { level: config.logLevel } : {}),
          serializers: { req: serializeRequest },
          redact: { paths: REDACT_PATHS, censor: REDACTED },
          ...(opts.logStream ? { stream: opts.logStream } : {}),
        }
      : false,
    bodyLimit: 1_048_576,
    // Behind a reverse proxy request.ip is the client's (X-Forwarded-For), only when TRUST_PROXY says whom to believe.
    trustProxy: trustProxyOption(config.trustProxy),
  }) as unknown as LightbarServer;
  app.lifecycle = { draining: false };
  const metrics = new ServerMetrics();
  app.metrics = metrics;
  installErrorHandler(app);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", 'https://maps.googleapis.com'],
        'style-src': ["'self'", "'unsafe-inline'", 'https://fonts.googleapis.com'],
        'img-src': [
          "'self'",
          'data:',
          'blob:',
          'https://tile.openstreetmap.org',
          'https://*.tile.openstreetmap.org',
          'https://*.googleapis.com',
          'https://*.gstatic.com',
          'https://*.google.com',
        ],
        'font-src': ["'self'", 'https://fonts.gstatic.com'],
        'connect-src': CONNECT_SOURCES,
        'worker-src': ["'self'", 'blob:'],
        // A plain-HTTP install on a LAN must work: never force HTTPS.
        'upgrade-insecure-requests': null,
      },
    },
    hsts: false,
    crossOriginEmbedderPolicy: false,
  });
  // OWASP Session Management / REST Security: tokens and account data must not be kept by a browser
  // or proxy cache. Every answer that did not choose its own policy (the built app's files, index.html)
  // says no-store.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', NO_STORE);
    return payload;
  });
  await app.register(rateLimit, { global: false });
  // Answers over COMPRESS_THRESHOLD_BYTES travel compressed when the client accepts it (a page of
  // 500 assets: about 10x smaller): brotli at the plugin's quality 4 (fast enough per request),
  // else gzip. The built app's files are compressed once at build time instead (server/http/spa.ts);
  // the live socket is not an HTTP answer and is never compressed here.
  await app.register(compress, { global: true, threshold: COMPRESS_THRESHOLD_BYTES, encodings: ['br', 'gzip'] });
  // The API calls in progress that load shedding may refuse: counted before the pressure gate runs.
  const sheddable = (request: FastifyRequest) =>
    !PRESSURE_EXEMPT.has(request.routeOptions.url ?? '') && !isAppFileRequest(request.method, request.url);
  let apiInFlight = 0;
  app.addHook('onRequest', async (request, reply) => {
    if (!sheddable(request)) return;
    apiInFlight += 1;
    // 'close' comes once for every answer: sent, failed, or its client gone.
    reply.raw.once('close', () => (apiInFlight -= 1));
  });
  // Shed load early (503 + Retry-After) instead of queueing requests past every client's timeout,
  // but only a queue: calls beyond `maxInFlight` in progress (docs/configuration.md).
  await app.register(underPressure, {
    maxEventLoopDelay: config.pressure.maxEventLoopDelayMs,
    maxEventLoopUtilization: config.pressure.maxEventLoopUtilization,
    // The load of the last sample, not the average since the process started.
    eventLoopUtilizationMode: 'interval',
    sampleInterval: config.pressure.sampleMs,
    retryAfter: config.pressure.retryAfterS,
    pressureHandler: async (request, reply) => {
      if (!sheddable(request) || apiInFlight - 1 < config.pressure.maxInFlight) return;
      metrics.shedCalls += 1;
      // A rejection goes to the error handler: the usual { error, message } body.
      reply.header('retry-after', String(config.pressure.retryAfterS));
      throw new HttpError(SERVICE_UNAVAILABLE, 'overloaded', OVERLOADED_MESSAGE);
    },
  });
  let services: RouteServices | undefined;
  if (opts.database) {
    const db = opts.database.db;
    const deps: ServerDeps = {
      config,
      db,
      // Links in the log only on a demo without SMTP (docs/decisions/design.md, mail).
      mailer: opts.mailer ?? (await createMailer(db, app.log, config.smtpUrl, { logBodies: config.demo && !config.smtpUrl })),
      now: opts.now ?? (() => new Date()),
      events: createEvents(),
      bus: opts.bus ?? (config.natsUrl ? await connectNatsBus(config.natsUrl) : new InProcessBus()),
      metrics,
    };
    app.deps = deps;
    app.decorate('lightbarNow', deps.now);
    const ingest = new IngestEngine(deps);
    await ingest.reload();
    app.ingest = ingest;
    services = { deps, ingest };
    watchIngest(metrics, ingest);
    const { pool } = opts.database;
    if (pool) {
      metrics.gauge(
        'db_pool_connections',
        'Connections of the Postgres pool, by state.',
        () => ({
          total: pool.totalCount,
          idle: pool.idleCount,
          waiting: pool.waitingCount,
        }),
        'state',
      );
    }
    app.addHook('onClose', async () => {
      await ingest.stop();
      deps.mailer.close();
      if (!opts.bus) await deps.bus.close();
    });
  }

  await registerRoutes(app, config, services, { lifecycle: app.lifecycle, metrics, metricsToken: config.metricsToken });
  return app;
}

/** The ingest's counts and backlog, read at each scrape. */
function watchIngest(metrics: ServerMetrics, ingest: IngestEngine): void {
  metrics.labelledCounter(
    'ingest_messages_total',
    'Device messages since start: accepted, rejected one by one, or refused with their batch while the ingest was full (busy).',
    'result',
    () => ({ ...ingest.counts }),
  );
  metrics.gauge(
    'ingest_backlog',
    'What the ingest holds: messages queued, trip points not yet written.',
    () => {
      const { queuedMessages, pendingPoints } = ingest.backlog();
      return { messages: queuedMessages, points: pendingPoints };
    },
    'kind',
  );
}
