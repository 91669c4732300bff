import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT_DIR } from '../../server/config';
import { NO_LOAD_SHEDDING } from './load-shedding';

export interface SpawnedServer {
  url: string;
  /** Everything the process printed so far. */
  output(): string;
  /** SIGTERM and wait for the process to exit. */
  stop(): Promise<void>;
}

/**
 * Starts the real server process (`server/main.ts`, as `npm start` runs it) with `env` over the
 * current environment, and resolves with its address once it prints "Lightbar is running at".
 * Shared by the end-to-end fixture and the multi-process suite.
 */
export async function spawnServer(env: Record<string, string | undefined>, startTimeoutMs = 60_000): Promise<SpawnedServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT_DIR, 'server', 'main.ts')], {
    cwd: ROOT_DIR,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...NO_LOAD_SHEDDING, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in ${startTimeoutMs / 1000} s:\n${output}`)), startTimeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Lightbar is running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
