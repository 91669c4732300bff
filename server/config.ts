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
  };
}
