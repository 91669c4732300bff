/**
 * Where a machine's cores went over a stretch of a bench (bench/README.md "Application bench"): the CPU
 * time of every process on the machine, read from /proc at the start and the end, grouped by what
 * it is — the processes the bench names (its servers, itself), each part of
 * Chromium (its browser process, the GPU process that draws in software here, the network service,
 * the renderer's main thread, its live worker, the rest of the renderer) and everything else
 * (Postgres, NATS, the other services of the machine, each by its command name). Linux only; elsewhere it reads nothing.
 */
import fs from 'node:fs';
import os from 'node:os';

/** Clock ticks a second (`getconf CLK_TCK`; 100 on Linux). */
const TICKS_PER_S = 100;

/** user + system time of /proc/<pid>[/task/<tid>]/stat (ticks); null when gone. */
function ticksOf(statPath: string): number | null {
  try {
    const stat = fs.readFileSync(statPath, 'utf8');
    // The command name may hold spaces and parentheses: the fields after it start past the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

function read(path: string): string {
  try {
    return fs.readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/**
 * A Chromium renderer's threads worth naming: its main thread (the process's first, named as the
 * process) and a page's worker (`comm` holds 15 characters at most). Workers are not told apart by
 * name: over a reload the live worker's share holds the basemap's worker too (src/map/basemap.ts,
 * alive only while it builds the offline basemap); over the window it is the live worker's alone.
 */
function rendererThread(pid: number, tid: number, comm: string): string | null {
  if (tid === pid) return 'Chromium page main thread';
  if (comm.startsWith('DedicatedWorker')) return 'Chromium live worker';
  return null;
}

/** What a process is, from its command line; the renderer is split by thread. */
function groupOf(pid: number, cmdline: string, named: ReadonlyMap<number, string>): string {
  const name = named.get(pid);
  if (name) return name;
  if (!/chrom/i.test(cmdline.split('\0')[0] ?? '')) return `other: ${read(`/proc/${pid}/comm`).trim() || 'kernel'}`;
  if (cmdline.includes('--type=gpu-process')) return 'Chromium GPU process';
  if (cmdline.includes('--type=renderer')) return 'Chromium renderer';
  if (cmdline.includes('--type=utility') && cmdline.includes('network')) return 'Chromium network service';
  if (cmdline.includes('--type=')) return 'Chromium other';
  return 'Chromium browser process';
}

/** CPU time so far of each process (`pid`) or named renderer thread (`pid/tid`), with its group (ticks). */
function sample(named: ReadonlyMap<number, string>): Map<string, { group: string; ticks: number }> {
  const counted = new Map<string, { group: string; ticks: number }>();
  let entries: string[] = [];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return counted;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const total = ticksOf(`/proc/${pid}/stat`);
    if (total === null) continue;
    const group = groupOf(pid, read(`/proc/${pid}/cmdline`), named);
    if (group !== 'Chromium renderer') {
      counted.set(entry, { group, ticks: total });
      continue;
    }
    let threads = 0;
    let tasks: string[] = [];
    try {
      tasks = fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      // gone meanwhile
    }
    for (const tid of tasks) {
      const thread = rendererThread(pid, Number(tid), read(`/proc/${pid}/task/${tid}/comm`).trim());
      const ticks = thread ? ticksOf(`/proc/${pid}/task/${tid}/stat`) : null;
      if (!thread || ticks === null) continue;
      counted.set(`${pid}/${tid}`, { group: thread, ticks });
      threads += ticks;
    }
    // The rest of the renderer: its total less its named threads (those alive now).
    counted.set(entry, { group: 'Chromium renderer, other threads', ticks: total - threads });
  }
  return counted;
}

export interface CpuShare {
  /** Cores each group used on average over the stretch, busiest first. */
  coresByGroup: Record<string, number>;
  /** Their sum (the idle services left out of `coresByGroup` included), and the machine's cores. */
  busyCores: number;
  cores: number;
}

/**
 * Starts counting, the processes of `named` (pid → group) under their names; the returned function
 * answers the cores each group used since. A process or
 * thread that started meanwhile counts from zero; one that ended is left out (its time cannot be
 * read any more): the sum is what those alive at the end used.
 */
export function startCpuShare(named: ReadonlyMap<number, string>): () => CpuShare {
  const started = performance.now();
  const before = sample(named);
  return () => {
    const seconds = (performance.now() - started) / 1000;
    const after = sample(named);
    // A renderer's total keeps the time of its threads that ended (the page's worker of before a
    // reload): what they had used at the start is theirs, not the rest of the renderer's.
    for (const [key, { ticks }] of before) {
      const [pid, tid] = key.split('/');
      const rest = tid !== undefined && !after.has(key) ? after.get(pid!) : undefined;
      if (rest) rest.ticks -= ticks;
    }
    const byGroup = new Map<string, number>();
    for (const [key, { group, ticks }] of after) {
      const used = Math.max(0, ticks - (before.get(key)?.ticks ?? 0));
      byGroup.set(group, (byGroup.get(group) ?? 0) + used / TICKS_PER_S / seconds);
    }
    const coresByGroup: Record<string, number> = {};
    let busy = 0;
    for (const [group, cores] of [...byGroup.entries()].sort((a, b) => b[1] - a[1])) {
      // The machine's idle services and kernel threads are left out; what the bench names is kept.
      busy += cores;
      if (group.startsWith('other: ') && cores < 0.01) continue;
      coresByGroup[group] = Math.round(cores * 100) / 100;
    }
    return { coresByGroup, busyCores: Math.round(busy * 100) / 100, cores: os.cpus().length };
  };
}
