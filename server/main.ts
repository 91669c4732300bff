import fs from 'node:fs';
import path from 'node:path';
import { ROOT_DIR, readConfig } from './config';
import { buildServer } from './app';

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT_DIR, 'package.json'), 'utf8')) as { version: string };
const config = readConfig(process.env, pkg.version);
fs.mkdirSync(config.dataDir, { recursive: true });

const app = await buildServer(config, { logger: process.env.LOG_LEVEL !== 'silent' });
const address = await app.listen({ port: config.port, host: config.host });
const shown = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
// The e2e harness reads this line to learn the port.
console.log(`Lightbar is running at ${shown}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
