// `npm run load -- --assets N --rate R [--seconds S]`: the load driver (bench/README.md).
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { checkLoadOptions, LOAD_LIMITS, runLoad, type LoadSecond } from './driver';

const USAGE = `npm run load -- --assets N --rate R [--seconds S] [--url http://127.0.0.1:8080] [--org NAME]
  [--user admin@lightbar.demo] [--password …] [--in-flight 4] [--out summary.json]
  --assets   assets to report for (1–${LOAD_LIMITS.assets}), taken from the signed-in user's organization and those below it
  --rate     device messages a second (1–${LOAD_LIMITS.rate}), not requests
  --seconds  how long (1–${LOAD_LIMITS.seconds}, default 30): exactly rate × seconds messages are sent
  --url      a server on this machine (default http://127.0.0.1:$PORT or 8080); other hosts are refused
  --org      the bench organization's name (default: the user's own and all below it)
  --password default $LOAD_PASSWORD or the demo password
  --in-flight requests in flight at most (1–${LOAD_LIMITS.inFlight}, default 4)`;

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: `http://127.0.0.1:${process.env.PORT || 8080}` },
    assets: { type: 'string' },
    rate: { type: 'string' },
    seconds: { type: 'string', default: '30' },
    org: { type: 'string' },
    user: { type: 'string', default: 'admin@lightbar.demo' },
    password: { type: 'string', default: process.env.LOAD_PASSWORD ?? 'Lightbar#2026' },
    'in-flight': { type: 'string', default: '4' },
    out: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help || values.assets === undefined || values.rate === undefined) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}

const options = {
  url: values.url,
  assets: Number(values.assets),
  rate: Number(values.rate),
  seconds: Number(values.seconds),
  org: values.org,
  user: values.user,
  password: values.password,
  maxInFlight: Number(values['in-flight']),
};
try {
  checkLoadOptions(options);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

const row = (cells: (string | number)[]) => cells.map((cell, i) => String(cell).padStart(i === 0 ? 4 : 9)).join(' ');
console.log(
  `Lightbar load: ${options.assets} assets, ${options.rate} msg/s for ${options.seconds} s (${options.rate * options.seconds} messages) to ${options.url}/ingest`,
);
console.log(
  'msg/s: sent ÷ the line’s real span; p50/p99: round trip of one POST /ingest measured by this client (the server exposes no ingest timing)',
);
console.log(row(['s', 'sent', 'accepted', 'rejected', 'failed', 'msg/s', 'p50 ms', 'p99 ms']));
// A line after the last second holds the answers to the requests still in flight then.
const printSecond = (s: LoadSecond) =>
  console.log(row([s.second > options.seconds ? 'end' : s.second, s.sent, s.accepted, s.rejected, s.failed, s.ratePerS, s.p50Ms, s.p99Ms]));

try {
  const summary = await runLoad({ ...options, onSecond: printSecond });
  console.log(
    `${summary.sent}/${summary.planned} sent to ${summary.organizations.join(', ')} in ${summary.requests} requests: ${summary.accepted} accepted, ` +
      `${summary.rejected} rejected, ${summary.failed} failed, ${summary.achievedRate} msg/s achieved, p50 ${summary.p50Ms} ms, p99 ${summary.p99Ms} ms` +
      (summary.firstProblem ? ` (first problem: ${summary.firstProblem})` : ''),
  );
  const body = JSON.stringify({ date: new Date().toISOString(), ...summary }, null, 2);
  console.log(body);
  if (values.out) fs.writeFileSync(values.out, `${body}\n`);
} catch (error) {
  console.error(`load driver: ${(error as Error).message}`);
  process.exit(1);
}
