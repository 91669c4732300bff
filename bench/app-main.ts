// `npm run bench:app [-- --sizes 2000,10000 --window 60]`: the application bench (bench/README.md "Application bench").
// `npm run bench:app -- --smoke`: one 60-asset row with every profiler on, checked for its profiles
// (the profiling path depends on DevTools target timing, so `npm test` proves the harness without it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { APP_BENCH_DEFAULTS, appBenchTable, firstVisitLine, missedTargets, runAppBench } from './app';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: APP_BENCH_DEFAULTS.sizes.join(',') },
    window: { type: 'string', default: String(APP_BENCH_DEFAULTS.windowS) },
    settle: { type: 'string', default: String(APP_BENCH_DEFAULTS.settleS) },
    'rate-cap': { type: 'string', default: String(APP_BENCH_DEFAULTS.rateCap) },
    'no-fair': { type: 'boolean', default: false },
    screenshots: { type: 'string' },
    profile: { type: 'string' },
    'database-url': { type: 'string' },
    'nats-url': { type: 'string' },
    out: { type: 'string' },
    smoke: { type: 'boolean', default: false },
  },
});
if (values.smoke) {
  Object.assign(values, { sizes: '60', window: '4', settle: '1', 'rate-cap': '60' });
  values.profile ??= fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-bench-app-smoke-'));
  values.out ??= path.join(values.profile, 'app-smoke.json');
}

const sizes = values.sizes.split(',').map(Number);
const positive = (name: string, value: number) => {
  if (!Number.isInteger(value) || value < 1) {
    console.error(`--${name} must be a whole number of at least 1, got ${value}`);
    process.exit(2);
  }
  return value;
};
sizes.forEach((size) => positive('sizes', size));
const options = {
  sizes,
  windowS: positive('window', Number(values.window)),
  settleS: Number(values.settle),
  rateCap: positive('rate-cap', Number(values['rate-cap'])),
  fair: !values['no-fair'],
  screenshots: values.screenshots,
  profile: values.profile,
  databaseUrl: values['database-url'],
  natsUrl: values['nats-url'],
  log: (line: string) => console.log(`  ${new Date().toISOString().slice(11, 19)} ${line}`),
};
for (const dir of [options.screenshots, options.profile]) if (dir) fs.mkdirSync(dir, { recursive: true });
const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`;
console.log(`Lightbar application bench on ${machine}: ${sizes.join(', ')} assets, ${options.windowS} s windows\n`);
// Each setup keeps its own file: bench/results/app.json (PGlite), app-postgres.json (Postgres + NATS, two processes).
const out = values.out ?? path.join(import.meta.dirname, 'results', options.databaseUrl ? 'app-postgres.json' : 'app.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
// Written after every row, so a row that fails keeps those before it.
const rows = await runAppBench({
  ...options,
  onRow: (done) =>
    fs.writeFileSync(
      out,
      `${JSON.stringify({ machine, date: new Date().toISOString(), options: { ...options, log: undefined }, rows: done }, null, 2)}\n`,
    ),
});
console.log(`\n${appBenchTable(rows)}\n`);
for (const visit of rows[0]?.firstVisit ?? []) console.log(firstVisitLine(visit));
for (const row of rows) {
  const missed = missedTargets(row);
  console.log(`${row.assets}: ${missed.length === 0 ? 'meets the targets' : `misses ${missed.join('; ')}`}`);
  if (row.insideLongTasks?.length) console.log(`  long tasks: ${row.insideLongTasks.join(' | ')}`);
  if (row.profileTop) console.log(`  self time (ms): ${row.profileTop.map((f) => `${f.name} ${f.selfMs}`).join('; ')}`);
}
if (values.smoke) {
  // The profiles of the row: the window's trace and main-thread profile, the reload's page and live worker.
  const expected = ['app-60-reload-page.cpuprofile', 'app-60-reload-worker.cpuprofile', 'app-60.cpuprofile', 'app-60.trace.json'];
  const written = fs.readdirSync(options.profile!);
  const row = rows[0];
  const problems = [
    ...(rows.length === 1 ? [] : [`${rows.length} rows instead of 1`]),
    ...expected.filter((file) => !written.includes(file)).map((file) => `no ${file}`),
    ...(row?.profileTop?.length ? [] : ['no main-thread profile top']),
    ...(row?.reloadPageTop?.length ? [] : ['no reload page profile top']),
    // The first visit, both ways: each reached its first screen, and compression moved fewer bytes.
    ...(row?.firstVisit?.length === 2 && row.firstVisit.every((visit) => visit.firstScreenMs !== null)
      ? row.firstVisit[1]!.bytes < row.firstVisit[0]!.bytes
        ? []
        : ['the compressed first visit moved no fewer bytes']
      : ['no first visit measured both ways']),
    ...(row?.reloadWorkerTop?.some((entry) => entry.name.includes('live.worker'))
      ? []
      : ['no live worker functions in the reload worker profile']),
  ];
  console.log(problems.length === 0 ? `smoke: every profile written (${options.profile})` : `smoke failed: ${problems.join('; ')}`);
  if (problems.length > 0) process.exit(1);
}
