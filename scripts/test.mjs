// `npm test`: every phase (docs/testing.md), stopping at the first that fails, then one line with
// each phase's seconds so every log (CI's included) says where the time went. Typecheck and lint
// read the sources only and use one core each: they run side by side with Vitest, whose files wait
// much of their time on server processes, databases and timers (docs/testing.md).
import { spawn } from 'node:child_process';
import { postgresPhaseRuns } from './postgres-phase.mjs';

const STEPS = [
  [
    ['typecheck', 'typecheck'],
    ['lint', 'lint'],
    ['vitest', 'test:unit'],
  ],
  [['postgres+nats', 'test:pg']],
  [['build+playwright', 'test:e2e']],
];
// The engine-neutral security suites run in the Postgres phase alone when that phase runs
// (ENGINE_NEUTRAL_SECURITY_SUITES in vite.config.ts); without Postgres and NATS, on PGlite.
if (postgresPhaseRuns()) process.env.LIGHTBAR_SECURITY_ON_POSTGRES = '1';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const seconds = (since) => Math.round((performance.now() - since) / 1000);

/** Runs one npm script; side-by-side scripts keep their output apart (printed whole when each ends). */
function run([name, script], together) {
  const start = performance.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], { stdio: together ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    if (together) {
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
    }
    child.on('close', (code, signal) => {
      if (together && output) process.stdout.write(`\n── ${name} ──\n${output}`);
      resolve({ name, time: `${name} ${seconds(start)} s`, failed: code === 0 ? null : `${name} failed (exit ${code ?? signal})` });
    });
  });
}

const times = [];
const started = performance.now();
let failed = null;
for (const step of STEPS) {
  const results = await Promise.all(step.map((phase) => run(phase, step.length > 1)));
  times.push(...results.map((result) => result.time));
  failed = results.find((result) => result.failed)?.failed ?? null;
  if (failed) break;
}
console.log(`\ntest phases: ${times.join(', ')}; total ${seconds(started)} s${failed ? `; ${failed}` : ''}`);
process.exit(failed ? 1 : 0);
