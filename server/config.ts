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
    version,
  };
}
