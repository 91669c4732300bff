import fs from 'node:fs';
import path from 'node:path';
import { ROOT_DIR, readConfig } from './config';
import { buildServer } from './app';
import { DataDirInUseError, openDatabase } from './db/connection';
import { ensureReferenceData } from './db/reference-data';
import { DEFAULT_DEMO_ASSETS, formatDemoSummary, seedDemo } from './seed/demo';
import { seedFromEnv } from './region/random';
import { JOB_TICK_MS, startJobRunner } from './jobs/runner';
import { FleetSimulator } from './sim/simulator';

/** How long a stop may take (requests in flight, the ingest's last batch, the database) before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;
/**
 * Ctrl-C in a terminal reaches both `npm start` (which forwards it) and this process: a repeat
 * this soon after the first is the same stop, not a request to abandon it.
 */
const REPEATED_SIGNAL_WINDOW_MS = 1_000;
const EXIT_FORCED = 1;

/**
 * Every stop removes the data folder's lock (part 1 §2 restarts; README "Design decisions"). The
 * handlers are installed before anything is opened: a signal during start (migrations, seeding)
 * must not kill the process by default, which skips the 'exit' listener that releases the lock.
 * Every path out goes through process.exit, so that listener always runs.
 */
let closeServer: (() => Promise<void>) | null = null;
let stopping: { at: number } | null = null;
function onStopSignal(signal: NodeJS.Signals): void {
  const now = Date.now();
  if (stopping) {
    if (now - stopping.at < REPEATED_SIGNAL_WINDOW_MS) return;
    console.error(`${signal} again: stopping now.`);
    process.exit(EXIT_FORCED);
  }
  stopping = { at: now };
  // Still starting: nothing to drain, and the open database is released by the 'exit' listener.
  if (!closeServer) process.exit(0);
  setTimeout(() => {
    console.error(`Lightbar did not stop within ${SHUTDOWN_GRACE_MS / 1000} s: exiting.`);
    process.exit(EXIT_FORCED);
  }, SHUTDOWN_GRACE_MS).unref();
  closeServer().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error('Lightbar stopped with an error:', error);
      process.exit(EXIT_FORCED);
    },
  );
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, onStopSignal);

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT_DIR, 'package.json'), 'utf8')) as { version: string };
const config = readConfig(process.env, pkg.version);
fs.mkdirSync(config.dataDir, { recursive: true });

// Migrations run on start, on PGlite in DATA_DIR or on the Postgres server of DATABASE_URL.
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir }).catch((error: unknown) => {
  // Two servers on one embedded database would break its files: say so, and stop.
  if (error instanceof DataDirInUseError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
});
await ensureReferenceData(database.db);

const app = await buildServer(config, { logger: process.env.LOG_LEVEL !== 'silent', database });
const deps = app.deps!;
const simAssets =
  process.env.SIM_ASSETS === undefined || process.env.SIM_ASSETS === '' ? DEFAULT_DEMO_ASSETS : Number(process.env.SIM_ASSETS);
if (!Number.isInteger(simAssets) || simAssets < 0) throw new Error(`SIM_ASSETS must be a whole number, got "${process.env.SIM_ASSETS}"`);

/** part 2 §2 Alerting zones: `SIM_ZONE_FLIP_MS`, how often the simulator flips a demo zone (0: never). */
function zoneFlipMsFromEnv(): number | undefined {
  const raw = process.env.SIM_ZONE_FLIP_MS;
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`SIM_ZONE_FLIP_MS must be a whole number of ms, got "${raw}"`);
  return value;
}

// A believable organization on first start (LIGHTBAR_DEMO=0 seeds nothing, for a real deployment).
if (config.demo) {
  const summary = await seedDemo(deps, { assets: simAssets, seed: seedFromEnv() });
  if (summary) for (const line of formatDemoSummary(summary)) console.log(line);
  else console.log('Demo data already present: sign in with the demo accounts of README (password Lightbar#2026).');
}

// The device ingest loads the fleet (seeded or not) and writes its rows once a second.
await app.ingest!.reload();
await app.ingest!.start();
// The fleet simulator drives the demo assets through the same ingest path devices use. Only with
// the demo on: it must never post made-up positions for a real deployment's devices.
const simulator =
  config.demo && simAssets > 0
    ? await new FleetSimulator(deps, app.ingest!, { assets: simAssets, seed: seedFromEnv(), zoneFlipMs: zoneFlipMsFromEnv() }).load()
    : null;
simulator?.start();
app.addHook('onClose', async () => simulator?.stop());

// Exports, monthly reports, scheduled closures and point retention.
const runner = startJobRunner({ ...deps, log: app.log }, { engine: database.engine, intervalMs: JOB_TICK_MS, recoverAtStart: true });
app.addHook('onClose', async () => runner.stop());

closeServer = async () => {
  // The database closes (and its lock goes) even when closing the app failed.
  try {
    await app.close();
  } finally {
    await database.close();
  }
};
// A signal that came while starting has already exited; one from here on drains the server.
const address = await app.listen({ port: config.port, host: config.host });
const shown = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
// The e2e harness reads this line to learn the port.
console.log(`Lightbar is running at ${shown} (database: ${database.engine === 'pglite' ? `PGlite in ${config.dataDir}` : 'Postgres'})`);
