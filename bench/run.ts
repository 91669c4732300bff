// `npm run bench`: timings measured, never asserted in tests (README "Bench").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchDomain } from './domain';

const results = [...benchDomain(10_000), ...benchDomain(50_000)];
const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`;
console.log(`Lightbar bench on ${machine}\n`);
console.log('| what | runs | p50 ms | p95 ms |\n|---|---:|---:|---:|');
for (const r of results) console.log(`| ${r.name} | ${r.runs} | ${r.p50Ms} | ${r.p95Ms} |`);
const dir = path.join(import.meta.dirname, 'results');
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, 'domain.json'), `${JSON.stringify({ machine, date: new Date().toISOString(), results }, null, 2)}\n`);
