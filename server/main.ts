import fs from 'node:fs';
import path from 'node:path';
import { ROOT_DIR, readConfig } from './config';
import { buildServer } from './app';
import { openDatabase } from './db/connection';
import { ensureReferenceData } from './db/reference-data';

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT_DIR, 'package.json'), 'utf8')) as { version: string };
const config = readConfig(process.env, pkg.version);
fs.mkdirSync(config.dataDir, { recursive: true });

// Migrations run on start, on PGlite in DATA_DIR or on the Postgres server of DATABASE_URL.
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
await ensureReferenceData(database.db);

const app = await buildServer(config, { logger: process.env.LOG_LEVEL !== 'silent', database });
// The device ingest writes the fleet's rows once a second.
await app.ingest?.start();
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
