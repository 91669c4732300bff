import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { ServerConfig } from './config';
import type { Database } from './db/connection';
import { createEvents, type ServerDeps } from './deps';
import { createMailer, type Mailer } from './mail/mailer';
import { installErrorHandler } from './http/errors';
import { registerApiRoutes } from './http/routes';
import { versionRoutes } from './http/version';
import { spaRoutes } from './http/spa';
import { connectNatsBus, InProcessBus, type Bus } from './live/bus';
import { cableRoutes } from './live/cable';
import { IngestEngine } from './live/ingest';
import { ingestRoutes } from './live/ingest-route';

export interface BuildOptions {
  /** Fastify's logger option: false, true, or pino options (tests pass a stream to read the log). */
  logger?: FastifyServerOptions['logger'];
  /** The database; without one only /version and the app are served (used by the harness test). */
  database?: Database;
  /** A fixed clock for tests. */
  now?: () => Date;
  mailer?: Mailer;
  /** The live bus; default in-process, or NATS when `config.natsUrl` is set. */
  bus?: Bus;
}

/** Map tiles, Google Maps and the three-word address service the browser may reach (issue 3, 7). */
const CONNECT_SOURCES = [
  "'self'",
  'ws:',
  'wss:',
  'https://tile.openstreetmap.org',
  'https://*.tile.openstreetmap.org',
  'https://*.googleapis.com',
  'https://*.gstatic.com',
  'https://api.what3words.com',
];

/** Builds the server without listening, so tests drive it with `inject`. */
export type LightbarServer = FastifyInstance & { deps?: ServerDeps; ingest?: IngestEngine };

export async function buildServer(config: ServerConfig, opts: BuildOptions = {}): Promise<LightbarServer> {
  const app: LightbarServer = Fastify({ logger: opts.logger ?? false, bodyLimit: 1_048_576 });
  installErrorHandler(app);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", 'https://maps.googleapis.com'],
        'style-src': ["'self'", "'unsafe-inline'", 'https://fonts.googleapis.com'],
        'img-src': ["'self'", 'data:', 'blob:', 'https://tile.openstreetmap.org', 'https://*.tile.openstreetmap.org', 'https://*.googleapis.com', 'https://*.gstatic.com', 'https://*.google.com'],
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
  await app.register(rateLimit, { global: false });
  versionRoutes(app, config.version);

  if (opts.database) {
    const db = opts.database.db;
    const deps: ServerDeps = {
      config,
      db,
      // Links in the log only on a demo without SMTP (README "Design decisions", mail).
      mailer: opts.mailer ?? (await createMailer(db, app.log, config.smtpUrl, { logBodies: config.demo && !config.smtpUrl })),
      now: opts.now ?? (() => new Date()),
      events: createEvents(),
      bus: opts.bus ?? (config.natsUrl ? await connectNatsBus(config.natsUrl) : new InProcessBus()),
    };
    app.deps = deps;
    app.decorate('lightbarNow', deps.now);
    registerApiRoutes(app, deps);
    await cableRoutes(app, deps, deps.bus);
    const ingest = new IngestEngine(deps);
    await ingest.reload();
    app.ingest = ingest;
    ingestRoutes(app, deps, ingest);
    app.addHook('onClose', async () => {
      await ingest.stop();
      deps.mailer.close();
      if (!opts.bus) await deps.bus.close();
    });
  }

  await spaRoutes(app, config.distDir);
  return app;
}
