// `npm test`: every phase (README "Tests"), then one line with each phase's seconds so every log
// (CI's included) says where the time went; it fails when any phase failed. Two lanes run side by
// side: the end-to-end phase, the longest, keeps about a third of two cores idle (the browser waits
// on its software frames, the specs on the server), and the other phases, one after another, use
// that time instead of waiting for it.
import { spawn } from 'node:child_process';

/** Steps in order (a failed step stops the steps after it); a step's lanes run side by side, a lane's phases one after another. */
const STEPS = [
  [
    [['build+playwright', 'test:e2e']],
    [
      ['typecheck', 'typecheck'],
      ['lint', 'lint'],
      ['vitest', 'test:unit'],
      ['postgres+nats', 'test:pg'],
    ],
  ],
];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const seconds = (since) => Math.round((performance.now() - since) / 1000);

/**
 * Runs one npm script. The first lane of a step writes as it goes; the others keep their output
 * and print it whole when each phase ends, so no two phases' lines mix.
 */
function run([name, script], live) {
  const start = performance.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], { stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    let output = '';
    if (!live) {
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
    }
    child.on('close', (code, signal) => {
      if (!live && output) process.stdout.write(`\n── ${name} ──\n${output}`);
      resolve({ name, time: `${name} ${seconds(start)} s`, failed: code === 0 ? null : `${name} failed (exit ${code ?? signal})` });
    });
  });
}

/** A lane's phases in order; it goes on after a failure (the other phases still say what they find). */
async function runLane(lane, live) {
  const results = [];
  for (const phase of lane) results.push(await run(phase, live));
  return results;
}

const times = [];
const failures = [];
const started = performance.now();
for (const step of STEPS) {
  const results = (await Promise.all(step.map((lane, index) => runLane(lane, index === 0)))).flat();
  times.push(...results.map((result) => result.time));
  failures.push(...results.filter((result) => result.failed).map((result) => result.failed));
  if (failures.length > 0) break;
}
console.log(`\ntest phases: ${times.join(', ')}; total ${seconds(started)} s${failures.length > 0 ? `; ${failures.join('; ')}` : ''}`);
process.exit(failures.length > 0 ? 1 : 0);
