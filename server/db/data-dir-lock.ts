/**
 * One server per embedded database: PGlite's files in DATA_DIR must not be opened by two
 * processes at once (both would write them, and the next start finds them broken). The first
 * server writes `lightbar.lock`: its process id on the first line, then what identifies that very
 * process (the boot, the process's start time in the kernel's ticks, the folder). Another server
 * refuses to start while that process runs, and takes over a lock whose holder is gone (a crash,
 * kill -9) or is not that process any more: a process id is reused by other programs, so a live
 * id alone proves nothing. Where /proc is missing (macOS, Windows) a live id is still believed.
 *
 * Why not an OS lock (flock) that dies with its process: Node has no flock without a native
 * module, and a Unix socket in the folder would hit the 104–108 byte path limit on long folders.
 */
import fs from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'lightbar.lock';

export class DataDirInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `Another Lightbar server (process ${pid}) is using the embedded database in ${dir}. Stop it, or start this one with DATA_DIR set to another folder (or DATABASE_URL to a Postgres server).`,
    );
    this.name = 'DataDirInUseError';
  }
}

/** What a lock file records; a lock written by an older server has the process id alone. */
export interface LockRecord {
  pid: number;
  /** /proc/sys/kernel/random/boot_id: process ids start over at each boot. */
  boot?: string;
  /** Field 22 of /proc/<pid>/stat: the process's start time since boot, in clock ticks. */
  start?: string;
  /** The folder, resolved: a copied data folder names the one its holder used. */
  dir?: string;
}

function readProc(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

const bootId = (): string | undefined => readProc('/proc/sys/kernel/random/boot_id')?.trim() || undefined;

/** The start time of a process, or undefined without /proc (or when it is gone). */
function startTicks(pid: number): string | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so count from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Field 22 overall is the 20th after "pid (comm)".
  return fields[19];
}

/** The process's command line, or undefined without /proc. */
function commandLine(pid: number): string[] | undefined {
  return readProc(`/proc/${pid}/cmdline`)?.split('\0').filter(Boolean);
}

/** How a Lightbar server process is started: `node … server/main.ts` (npm start, npm run server). */
const SERVER_ENTRY = /(^|[\\/])server[\\/]main\.[cm]?[jt]s$/;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the process a lock names still is the Lightbar server that wrote it for `dir`: alive,
 * same boot, same start time; for a lock without those, a process started as a Lightbar server.
 */
export function lockHolderRuns(pid: number, record: LockRecord, dir: string): boolean {
  if (!processAlive(pid)) return false;
  if (record.dir !== undefined && record.dir !== path.resolve(dir)) return false;
  const boot = bootId();
  if (record.boot !== undefined && boot !== undefined && record.boot !== boot) return false;
  const start = startTicks(pid);
  if (start === undefined) return true; // no /proc: a live id is all there is to go by
  if (record.start !== undefined) return record.start === start;
  const args = commandLine(pid);
  return args === undefined || args.some((arg) => SERVER_ENTRY.test(arg));
}

export function formatLock(record: LockRecord): string {
  const lines = [String(record.pid)];
  if (record.boot !== undefined) lines.push(`boot=${record.boot}`);
  if (record.start !== undefined) lines.push(`start=${record.start}`);
  if (record.dir !== undefined) lines.push(`dir=${record.dir}`);
  return lines.join('\n');
}

export function parseLock(text: string): LockRecord {
  const [first = '', ...rest] = text.split('\n');
  const record: LockRecord = { pid: Number(first.trim()) };
  for (const line of rest) {
    const at = line.indexOf('=');
    if (at < 0) continue;
    const key = line.slice(0, at);
    const value = line.slice(at + 1);
    if (key === 'boot' || key === 'start' || key === 'dir') record[key] = value;
  }
  return record;
}

/** What identifies this process (its own id); another id gets the id alone (tests lock for made-up ids). */
function recordFor(pid: number, dir: string): LockRecord {
  if (pid !== process.pid) return { pid };
  return { pid, boot: bootId(), start: startTicks(pid), dir: path.resolve(dir) };
}

/** The folders this process holds (a lock file with its own id may also be a stale one from a restart that reused the id). */
const held = new Set<string>();

/**
 * Takes the data folder for this process; answers the release. Throws DataDirInUseError when the
 * process a lock names still holds it (this one included). `holderRuns` decides that (tests pass their own).
 */
export function lockDataDir(
  dir: string,
  pid: number = process.pid,
  holderRuns: (pid: number, record: LockRecord) => boolean = (holder, record) => lockHolderRuns(holder, record, dir),
): () => void {
  const file = path.join(dir, LOCK_FILE);
  const key = `${pid}:${path.resolve(dir)}`;
  if (held.has(key)) throw new DataDirInUseError(dir, pid);
  const content = formatLock(recordFor(pid, dir));
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      fs.writeFileSync(file, content, { flag: 'wx' });
      held.add(key);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        held.delete(key);
        try {
          if (fs.readFileSync(file, 'utf8') === content) fs.rmSync(file);
        } catch {
          // Already gone.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let record: LockRecord;
      try {
        record = parseLock(fs.readFileSync(file, 'utf8'));
      } catch {
        continue; // released between the two calls: try again
      }
      const holder = record.pid;
      if (Number.isInteger(holder) && holder > 0 && holder !== pid && holderRuns(holder, record)) throw new DataDirInUseError(dir, holder);
      // Left by a process that is gone, that is not the server which wrote it, or by this one: take it over.
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take ${file}`);
}
