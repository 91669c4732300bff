import fs from 'node:fs';
import path from 'node:path';
import { ROOT_DIR, readConfig } from './config';
import { buildServer } from './app';
import { DataDirInUseError, openDatabase } from './db/connection';
import { ensureReferenceData } from './db/reference-data';
import { DEFAULT_DEMO_ASSETS, formatDemoSummary, seedDemo } from './seed/demo';
import { seedFromEnv } from './seed/random';
import { JOB_TICK_MS, startJobRunner } from './jobs/runner';
import { FleetSimulator } from './sim/simulator';

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
const simAssets = process.env.SIM_ASSETS === undefined || process.env.SIM_ASSETS === '' ? DEFAULT_DEMO_ASSETS : Number(process.env.SIM_ASSETS);
if (!Number.isInteger(simAssets) || simAssets < 0) throw new Error(`SIM_ASSETS must be a whole number, got "${process.env.SIM_ASSETS}"`);

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
  config.demo && simAssets > 0 ? await new FleetSimulator(deps, app.ingest!, { assets: simAssets, seed: seedFromEnv() }).load() : null;
simulator?.start();
app.addHook('onClose', async () => simulator?.stop());

// Exports, monthly reports, scheduled closures and point retention (issue 3 "Jobs").
const runner = startJobRunner({ ...deps, log: app.log }, { engine: database.engine, intervalMs: JOB_TICK_MS, recoverAtStart: true });
app.addHook('onClose', async () => runner.stop());

const address = await app.listen({ port: config.port, host: config.host });
const shown = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
// The e2e harness reads this line to learn the port.
console.log(`Lightbar is running at ${shown} (database: ${database.engine === 'pglite' ? `PGlite in ${config.dataDir}` : 'Postgres'})`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}
