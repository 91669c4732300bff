import fs from 'node:fs';
import path from 'node:path';
import { ROOT_DIR, readConfig } from './config';
import { buildServer } from './app';
import { DataDirInUseError, openDatabase } from './db/connection';
import { ensureReferenceData } from './db/reference-data';
import { DEFAULT_DEMO_ASSETS, formatDemoSummary, seedDemo } from './seed/demo';
import { createFirstAdmin } from './seed/first-admin';
import { JOB_TICK_MS, startJobRunner } from './jobs/runner';
import { FleetSimulator } from './sim/simulator';

/**
 * How long a stop may take after the drain (requests in flight, the sockets' close, the ingest's
 * last batch, the database) before the process exits anyway.
 */
const SHUTDOWN_GRACE_MS = 10_000;
/**
 * Ctrl-C in a terminal reaches both `npm start` (which forwards it) and this process: a repeat
 * this soon after the first is the same stop, not a request to abandon it.
 */
const REPEATED_SIGNAL_WINDOW_MS = 1_000;
const EXIT_FORCED = 1;

/**
 * Every stop removes the data folder's lock (part 1 §2 restarts; docs/decisions/design.md). The
 * handlers are installed before anything is opened: a signal during start (migrations, seeding)
 * must not kill the process by default, which skips the 'exit' listener that releases the lock.
 * Every path out goes through process.exit, so that listener always runs.
 */
let closeServer: (() => Promise<void>) | null = null;
/** SHUTDOWN_DRAIN_MS, once the configuration is read (a signal before it stops at once). */
let drainMs = 0;
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
    console.error(`Lightbar did not stop within ${(drainMs + SHUTDOWN_GRACE_MS) / 1000} s: exiting.`);
    process.exit(EXIT_FORCED);
  }, drainMs + SHUTDOWN_GRACE_MS).unref();
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
// One schema reads every variable: a wrong one stops the start, naming it and what it accepts.
let config: ReturnType<typeof readConfig>;
try {
  config = readConfig(process.env, pkg.version);
} catch (error) {
  console.error(`Lightbar cannot start: the environment has a wrong value.\n${(error as Error).message}`);
  process.exit(1);
}
drainMs = config.shutdownDrainMs;
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

const app = await buildServer(config, { logger: config.logLevel !== 'silent', database });
const deps = app.deps!;
const simAssets = config.simAssets ?? DEFAULT_DEMO_ASSETS;

// A believable organization on first start (LIGHTBAR_DEMO=0 seeds nothing, for a real deployment).
if (config.demo) {
  const summary = await seedDemo(deps, { assets: simAssets, seed: config.simSeed });
  if (summary) for (const line of formatDemoSummary(summary)) console.log(line);
  else console.log('Demo data already present: sign in with the demo accounts of README (password Lightbar#2026).');
}
// A real deployment's first administrator, on an empty database (docs/deployment.md).
if (config.firstAdmin) {
  const admin = await createFirstAdmin(deps, config.firstAdmin);
  if (admin) {
    console.log(`First administrator ${admin.email} created in the organization "${admin.organization}" (Org Admin).`);
    console.log(`Set the password within 7 days at: ${admin.link}`);
  } else
    console.log('LIGHTBAR_ADMIN_EMAIL: the database already has organizations, so no administrator was created (add users in Accounts).');
}

// The device ingest loads the fleet (seeded or not) and writes its rows once a second.
await app.ingest!.reload();
await app.ingest!.start();
// The fleet simulator drives the demo assets through the same ingest path devices use. Only with
// the demo on: it must never post made-up positions for a real deployment's devices.
const simulator =
  config.demo && simAssets > 0
    ? await new FleetSimulator(deps, app.ingest!, { assets: simAssets, seed: config.simSeed, zoneFlipMs: config.simZoneFlipMs }).load()
    : null;
simulator?.start();
app.addHook('onClose', async () => simulator?.stop());

// Exports, monthly reports, scheduled closures and point retention.
const runner = startJobRunner({ ...deps, log: app.log }, { engine: database.engine, intervalMs: JOB_TICK_MS, recoverAtStart: true });
app.addHook('onClose', async () => runner.stop());

/**
 * A stop (SIGTERM, Ctrl-C): /ready answers 503 'draining' at once, and for SHUTDOWN_DRAIN_MS the
 * process goes on serving while the proxy moves new clients elsewhere; then it takes no new
 * request, finishes those in flight, tells every socket to reconnect, writes what the ingest holds
 * (nothing acknowledged is lost), and closes the database.
 */
closeServer = async () => {
  app.lifecycle.draining = true;
  if (config.shutdownDrainMs > 0) {
    console.log(`Lightbar is draining for ${config.shutdownDrainMs} ms before it stops.`);
    await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
  }
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
