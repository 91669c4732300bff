// `npm run bench:ingest [-- --assets 20000 --rate 20000 --seconds 300 --dashboards 10]`: the ingest bench (bench/ingest.ts).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchMachine, INGEST_BENCH_DEFAULTS, ingestBenchTable, runIngestBench, type IngestBenchRowSpec } from './ingest';

const USAGE = `npm run bench:ingest -- [--assets N[,N…]] [--rate R[,R…]] [--seconds S] [--dashboards D]
  [--database-url postgres://… --nats-url nats://…] [--in-flight 8] [--frames] [--profile DIR] [--out file.json]
  --assets        the bench organization's assets, one row each (default ${INGEST_BENCH_DEFAULTS.rows[0]!.assets})
  --rate          device messages a second asked of the load driver: one for all rows, or one per row (default ${INGEST_BENCH_DEFAULTS.rows[0]!.rate})
  --seconds       how long each row sends (default ${INGEST_BENCH_DEFAULTS.seconds})
  --dashboards    live sockets subscribed to the bench organization (default ${INGEST_BENCH_DEFAULTS.dashboards})
  --database-url  a Postgres administrator's URL: each row gets a fresh database there (default: PGlite)
  --nats-url      with --database-url: NATS and two server processes (the driver posts to one, the dashboards watch the other)
  --in-flight     the driver's requests in flight at most (default ${INGEST_BENCH_DEFAULTS.maxInFlight})
  --frames        the dashboards take a frame per message (part 1 §4's pair alone), not batches as the dashboard does
  --profile       a directory for each server process's CPU profile over the row (node --cpu-prof); the row lists where the time went
  --out           the results file (default bench/results/ingest.json, ingest-postgres.json on Postgres)`;

const { values } = parseArgs({
  options: {
    assets: { type: 'string', default: String(INGEST_BENCH_DEFAULTS.rows[0]!.assets) },
    rate: { type: 'string', default: String(INGEST_BENCH_DEFAULTS.rows[0]!.rate) },
    seconds: { type: 'string', default: String(INGEST_BENCH_DEFAULTS.seconds) },
    dashboards: { type: 'string', default: String(INGEST_BENCH_DEFAULTS.dashboards) },
    'database-url': { type: 'string' },
    'nats-url': { type: 'string' },
    'in-flight': { type: 'string', default: String(INGEST_BENCH_DEFAULTS.maxInFlight) },
    frames: { type: 'boolean', default: false },
    profile: { type: 'string' },
    out: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const numbers = (text: string) => text.split(',').map(Number);
const assets = numbers(values.assets);
const rates = numbers(values.rate);
if (rates.length !== 1 && rates.length !== assets.length) {
  console.error(`--rate takes one value for all rows or one per row (${assets.length}), got ${rates.length}\n\n${USAGE}`);
  process.exit(2);
}
const rows: IngestBenchRowSpec[] = assets.map((count, i) => ({ assets: count, rate: rates[rates.length === 1 ? 0 : i]! }));

// Ctrl-C (or SIGTERM) ends the row in progress and cleans it up: servers, sockets, the scratch
// database and the data directories. A second one ends the bench at once.
const stop = new AbortController();
const onSignal = () => {
  if (stop.signal.aborted) process.exit(130);
  console.log('\nstopping: cleaning up the row in progress (again to quit at once)');
  stop.abort();
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const options = {
  rows,
  seconds: Number(values.seconds),
  dashboards: Number(values.dashboards),
  batched: !values.frames,
  databaseUrl: values['database-url'],
  natsUrl: values['nats-url'],
  maxInFlight: Number(values['in-flight']),
  profile: values.profile ? path.resolve(values.profile) : undefined,
  signal: stop.signal,
  log: (line: string) => console.log(`  ${new Date().toISOString().slice(11, 19)} ${line}`),
};
const machine = benchMachine();
const setup = options.databaseUrl ? `Postgres${options.natsUrl ? ' + NATS, 2 processes' : ', 1 process'}` : 'PGlite, 1 process';
console.log(
  `Lightbar ingest bench on ${machine.cores} × ${machine.cpuModel}, Node ${machine.node}: ${setup}, ${options.dashboards} dashboards (${options.batched ? 'batches' : 'a frame per message'}), ${options.seconds} s a row\n`,
);
// Each setup keeps its own file, written after every row, so a row that fails keeps those before it.
const out = values.out ?? path.join(import.meta.dirname, 'results', options.databaseUrl ? 'ingest-postgres.json' : 'ingest.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
try {
  const done = await runIngestBench({
    ...options,
    onSecond: (spec, s) => {
      // A line every 10 s (and the first ones): the run's progress without a wall of numbers.
      if (s.second > 3 && s.second % 10 !== 0) return;
      options.log(
        `${spec.assets} assets, s ${s.second}: ${s.ratePerS} msg/s, ingest p50 ${s.ingestP50Ms} / p99 ${s.ingestP99Ms} ms, ` +
          `RSS ${s.rssMiB.join(' + ')} MiB, delivered min ${s.deliveredMinPerS}/s${s.failed ? `, ${s.failed} failed` : ''}`,
      );
    },
    onRow: (finished) =>
      fs.writeFileSync(
        out,
        `${JSON.stringify({ machine, date: new Date().toISOString(), options: { ...options, signal: undefined, log: undefined }, rows: finished }, null, 2)}\n`,
      ),
  });
  if (done.length === 0) console.log(stop.signal.aborted ? '\ninterrupted: no row finished' : '\nno row finished');
  else {
    console.log(`\n${ingestBenchTable(done)}\n`);
    for (const row of done)
      if (row.cpu)
        console.log(
          `${row.assets} assets: cores used while sending: ${JSON.stringify(row.cpu.coresByGroup)} (${row.cpu.busyCores} of ${row.cpu.cores})`,
        );
    console.log(
      'ingest p50 / p99: every POST /ingest round trip of the run, as the driver measured it; delivered: live messages a second per dashboard (a frame each or in batches), ' +
        'mean (least one-second count); RSS slope: least-squares over the second half of the run; shed: messages failed or rejected',
    );
  }
  for (const row of done) {
    const problems = [
      row.unsent > 0 ? `${row.unsent} unsent` : '',
      row.firstProblem ? `first problem: ${row.firstProblem}` : '',
      row.socketCloses > 0 ? `${row.socketCloses} dashboard sockets closed by the server` : '',
      row.deliveredShareMin < 1
        ? `the least-served dashboard got ${Math.round(row.deliveredShareMin * 1000) / 10} % of the accepted messages`
        : '',
    ].filter(Boolean);
    if (problems.length > 0) console.log(`${row.assets} assets at ${row.rate} msg/s: ${problems.join('; ')}`);
    row.profileTop?.forEach((top, process) => {
      console.log(`\n${row.assets} assets, server process ${process + 1}: self time over the row (ms)`);
      for (const { name, selfMs } of top) console.log(`  ${String(selfMs).padStart(9)}  ${name}`);
    });
  }
  console.log(`results: ${path.isAbsolute(values.out ?? '') ? out : path.relative(process.cwd(), out)}`);
  if (stop.signal.aborted) process.exit(130);
} catch (error) {
  console.error(`ingest bench: ${(error as Error).message}`);
  process.exit(stop.signal.aborted ? 130 : 1);
}
