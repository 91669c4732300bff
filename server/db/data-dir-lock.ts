/**
 * One server per embedded database: PGlite's files in DATA_DIR must not be opened by two
 * processes at once (both would write them, and the next start finds them broken). The first
 * server writes its process id into `lightbar.lock`; another one refuses to start while that
 * process lives, and takes over a lock left by a process that is gone (a crash, kill -9).
 */
import fs from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'lightbar.lock';

export class DataDirInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(`Another Lightbar server (process ${pid}) is using the embedded database in ${dir}. Stop it, or start this one with DATA_DIR set to another folder (or DATABASE_URL to a Postgres server).`);
    this.name = 'DataDirInUseError';
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The folders this process holds (a lock file with its own id may also be a stale one from a restart that reused the id). */
const held = new Set<string>();

/** Takes the data folder for this process; answers the release. Throws DataDirInUseError when a live process (this one included) holds it. */
export function lockDataDir(dir: string, pid: number = process.pid, isAlive: (pid: number) => boolean = processAlive): () => void {
  const file = path.join(dir, LOCK_FILE);
  const key = `${pid}:${path.resolve(dir)}`;
  if (held.has(key)) throw new DataDirInUseError(dir, pid);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      fs.writeFileSync(file, String(pid), { flag: 'wx' });
      held.add(key);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        held.delete(key);
        try {
          if (fs.readFileSync(file, 'utf8').trim() === String(pid)) fs.rmSync(file);
        } catch {
          // Already gone.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let holder = Number.NaN;
      try {
        holder = Number(fs.readFileSync(file, 'utf8').trim());
      } catch {
        continue; // released between the two calls: try again
      }
      if (Number.isInteger(holder) && holder > 0 && holder !== pid && isAlive(holder)) throw new DataDirInUseError(dir, holder);
      // Left by a process that is gone (or by this one): take it over.
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take ${file}`);
}
