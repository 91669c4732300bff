// `npm run bench`: timings measured, never asserted in tests (bench/README.md).
// `npm run bench -- worker` (or `domain`) runs one part only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchDomain } from './domain';
import { benchReplay } from './replay';
import type { BenchResult } from './measure';
import { benchWorker } from './worker';
import { benchLive } from './live';
import { benchSimulator } from './simulator';
import { runMapBench } from './map';

const only = process.argv[2];
const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`;
const dir = process.env.BENCH_RESULTS_DIR ?? path.join(import.meta.dirname, 'results');
fs.mkdirSync(dir, { recursive: true });
console.log(`Lightbar bench on ${machine}\n`);

function report(file: string, results: BenchResult[], figures?: Record<string, number | string>): void {
  console.log('| what | runs | p50 ms | p95 ms |\n|---|---:|---:|---:|');
  for (const r of results) console.log(`| ${r.name} | ${r.runs} | ${r.p50Ms} | ${r.p95Ms} |`);
  if (figures) for (const [name, value] of Object.entries(figures)) console.log(`- ${name}: ${value}`);
  console.log('');
  const body = { machine, date: new Date().toISOString(), results, ...(figures ? { figures } : {}) };
  fs.writeFileSync(path.join(dir, file), `${JSON.stringify(body, null, 2)}\n`);
}

if (!only || only === 'domain') report('domain.json', [...benchDomain(10_000), ...benchDomain(50_000)]);
if (!only || only === 'replay') report('replay.json', benchReplay(5, 10_000));
if (!only || only === 'worker') {
  const { results, figures } = benchWorker();
  report('worker.json', results, figures);
}

if (!only || only === 'live') {
  const rows = await benchLive([2_000, 10_000, 50_000], [1, 10, 100]);
  console.log(
    '| assets | socket clients | ingest msg/s | frames delivered/s | latency p50 ms | p99 ms | server RSS MiB |\n|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of rows) {
    console.log(
      `| ${r.assets} | ${r.clients} | ${r.ingestMessagesPerSecond} | ${r.deliveredFramesPerSecond} | ${r.latencyP50Ms} | ${r.latencyP99Ms} | ${r.rssMiB} |`,
    );
  }
  fs.writeFileSync(path.join(dir, 'live.json'), `${JSON.stringify({ machine, date: new Date().toISOString(), rows }, null, 2)}\n`);
}

if (!only || only === 'sim') {
  const rows = await benchSimulator([2_000, 10_000, 50_000]);
  console.log(
    '| assets | seed ms | load ms | messages/tick mean | max | ms/tick mean | p95 | ingest flush ms |\n|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of rows) {
    console.log(
      `| ${r.assets} | ${r.seedMs} | ${r.loadMs} | ${r.messagesPerTickMean} | ${r.messagesPerTickMax} | ${r.msPerTickMean} | ${r.msPerTickP95} | ${r.flushMsMean} |`,
    );
  }
  fs.writeFileSync(path.join(dir, 'simulator.json'), `${JSON.stringify({ machine, date: new Date().toISOString(), rows }, null, 2)}\n`);
}

if (!only || only === 'map') await runMapBench(dir, machine);
