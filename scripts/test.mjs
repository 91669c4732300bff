// `npm test`: every phase in order (README "Tests"), stopping at the first that fails, then one
// line with each phase's seconds so every log (CI's included) says where the time went.
import { spawnSync } from 'node:child_process';

const PHASES = [
  ['typecheck', 'typecheck'],
  ['lint', 'lint'],
  ['vitest', 'test:unit'],
  ['postgres+nats', 'test:pg'],
  ['build+playwright', 'test:e2e'],
];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const times = [];
const started = performance.now();
let failed = null;
for (const [name, script] of PHASES) {
  const start = performance.now();
  const result = spawnSync(npm, ['run', '--silent', script], { stdio: 'inherit' });
  times.push(`${name} ${Math.round((performance.now() - start) / 1000)} s`);
  if (result.status !== 0) {
    failed = `${name} failed (exit ${result.status ?? result.signal})`;
    break;
  }
}
console.log(
  `\ntest phases: ${times.join(', ')}; total ${Math.round((performance.now() - started) / 1000)} s${failed ? `; ${failed}` : ''}`,
);
process.exit(failed ? 1 : 0);
