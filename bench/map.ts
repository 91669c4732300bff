/**
 * The live map in Chromium (bench/README.md): the bench page runs the real live worker
 * engine, bridge and store over a synthetic network (bench/map-page/) and draws the assets layer
 * on the standalone map; the stream is one point message per asset per second. After the initial
 * load has settled, over a fixed window, it measures the main thread's scripting time per second
 * (Chrome DevTools Protocol `Performance.getMetrics` ScriptDuration, and TaskDuration for all
 * main-thread work) and counts long tasks (≥ 50 ms, PerformanceObserver 'longtask').
 * Headless Chromium here rasterizes WebGL in software: frames per second are not a result.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { startMapPage } from './map-page/serve';
import { CHROMIUM, SOFTWARE_GL_ARGS } from '../tests/support/chromium';

const SETTLE_MS = 5_000;
const WINDOW_MS = 10_000;
const LOAD_TIMEOUT_MS = 180_000;

export interface MapBenchRow {
  assets: number;
  /** What the page draws: the whole map, the assets layer only, or nothing (the live pipeline alone). */
  draw: MapDraw;
  /** WebGL's renderer string (SwiftShader: software). */
  renderer: string;
  messagesPerSecond: number;
  loadMs: number;
  windowS: number;
  /** Main-thread JavaScript per second of wall time (ms/s); /10 gives per cent busy. */
  scriptMsPerS: number;
  /** All main-thread task time per second (script, style, layout, GL command issue) (ms/s). */
  taskMsPerS: number;
  longTasks: number;
  /** With BENCH_TRACE: for each long task, its duration and the trace events inside it by time. */
  insideLongTasks?: string[];
  /** With BENCH_PROFILE: the main thread's functions by self time over the window. */
  profileTop?: { name: string; selfMs: number }[];
  longestTaskMs: number;
  diffsPerS: number;
  /** Point messages the synthetic socket delivered to the worker per second (the rate achieved). */
  streamedPerS: number;
}

type Metrics = Record<string, number>;

/**
 * 'all': the standalone map (basemap + the assets layer); 'assets': the assets layer alone; 'none':
 * no drawing (the live pipeline alone); 'dashboard': the app's dashboard map as a new user has it
 * (group view on: clusters and singles, overlays, controls); 'dashboard-flat': the same with the
 * group view off (every asset drawn).
 */
export type MapDraw = 'all' | 'assets' | 'none' | 'dashboard' | 'dashboard-flat';

function pageQuery(draw: MapDraw): string {
  if (draw === 'dashboard-flat') return 'draw=dashboard&group=off';
  return `draw=${draw}`;
}

/**
 * Chromium's flags: software WebGL here (`SOFTWARE_GL_ARGS`, as the end-to-end suite and every
 * figure of bench/README.md); `BENCH_SOFTWARE_ARGS` replaces them
 * (`BENCH_SOFTWARE_ARGS="--use-angle=swiftshader --enable-unsafe-swiftshader"`: SwiftShader in the
 * GPU process, bench/README.md "Application bench"); `BENCH_GPU=1` asks for the GPU through ANGLE on Vulkan
 * (the device machine's run, bench/README.md "The browser main thread"); `BENCH_GPU_ARGS` replaces those GPU flags.
 */
export function launchArgs(): string[] {
  const common = ['--no-sandbox', '--no-first-run', '--disable-background-networking'];
  const gpu = process.env.BENCH_GPU_ARGS?.split(' ').filter(Boolean) ?? [
    '--use-angle=vulkan',
    '--enable-features=Vulkan',
    '--disable-vulkan-surface',
    '--ignore-gpu-blocklist',
    '--enable-gpu-rasterization',
  ];
  if (process.env.BENCH_GPU === '1') return [...common, ...gpu];
  return [...common, ...(process.env.BENCH_SOFTWARE_ARGS?.split(' ').filter(Boolean) ?? SOFTWARE_GL_ARGS)];
}

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
}

/** The functions with the most self time in a CPU profile (ms over the window), the idle and program entries left out. */
export function profileTop(profile: CpuProfile, count = 12): { name: string; selfMs: number }[] {
  const total = profile.samples?.length ?? 0;
  if (total === 0) return [];
  const msPerSample = (profile.endTime - profile.startTime) / 1000 / total;
  const self = new Map<string, number>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)' || functionName === '(program)' || functionName === '(root)') continue;
    const file = url.split('/').pop() ?? '';
    const name = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + (node.hitCount ?? 0) * msPerSample);
  }
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, ms]) => ({ name, selfMs: Math.round(ms * 10) / 10 }));
}

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { functionName?: string; url?: string } };
}
export interface TraceFile {
  traceEvents: TraceEvent[];
}

/** Each main-thread task of 50 ms or more in a trace: its length and the longest kinds of events inside it. */
export function longTaskContents(trace: TraceFile): string[] {
  const events = trace.traceEvents;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return [];
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined);
  const tasks = onMain.filter((e) => e.name === 'RunTask' && (e.dur as number) >= 50_000);
  return tasks.map((task) => {
    const end = task.ts + (task.dur as number);
    const inside = new Map<string, number>();
    for (const e of onMain) {
      if (e === task || e.ts < task.ts || e.ts >= end) continue;
      const label = e.args?.data?.functionName ? `${e.name} ${e.args.data.functionName}` : e.name;
      inside.set(label, Math.max(inside.get(label) ?? 0, (e.dur as number) / 1000));
    }
    const top = [...inside.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8);
    return `${Math.round((task.dur as number) / 1000)} ms: ${top.map(([name, ms]) => `${name} ${Math.round(ms * 10) / 10}`).join(', ')}`;
  });
}

/** The renderer WebGL reports on the page (software or the GPU's name). */
export async function rendererOf(page: Page): Promise<string> {
  return page.evaluate(() => {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return 'no WebGL2';
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    return String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
  });
}

/**
 * Starts a Chrome trace of `page` into `file` (the main thread's timeline, V8 and its garbage
 * collections); the function returned stops it and summarizes its long tasks (`longTaskContents`).
 */
export async function startTrace(browser: Browser, page: Page, file: string): Promise<() => Promise<string[]>> {
  await browser.startTracing(page, {
    path: file,
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'disabled-by-default-v8.gc'],
  });
  return async () => longTaskContents(JSON.parse((await browser.stopTracing()).toString('utf8')) as TraceFile);
}

/**
 * Starts the page's CPU profiler, sampling every `intervalUs` microseconds; the function returned
 * stops it, writes the profile into `file` (a `.cpuprofile` DevTools opens) and returns it.
 */
export async function startCpuProfile(cdp: CDPSession, intervalUs: number, file: string): Promise<() => Promise<CpuProfile>> {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: intervalUs });
  await cdp.send('Profiler.start');
  return async () => {
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
    fs.writeFileSync(file, JSON.stringify(profile));
    return profile;
  };
}

export async function benchMap(sizes: readonly number[], draws: readonly MapDraw[] = ['all', 'none']): Promise<MapBenchRow[]> {
  const server = await startMapPage(process.env.MAP_PAGE_DIR ? { dir: process.env.MAP_PAGE_DIR } : 'build');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: launchArgs() });
  const rows: MapBenchRow[] = [];
  try {
    for (const assets of sizes)
      for (const draw of draws) {
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Performance.enable');
        const started = Date.now();
        const rate = Number(process.env.BENCH_MAP_RATE) || assets;
        await page.goto(`${server.url}?assets=${assets}&rate=${rate}&zoom=10&spread=0.5&tiles=none&${pageQuery(draw)}`);
        const renderer = await rendererOf(page);
        await page.waitForFunction(() => window.lightbarBench?.ready() === true, undefined, { timeout: LOAD_TIMEOUT_MS, polling: 250 });
        const loadMs = Date.now() - started;
        await page.waitForTimeout(SETTLE_MS);
        await page.evaluate(() => {
          const w = window as unknown as { longTasks: number[] };
          w.longTasks = [];
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) w.longTasks.push(entry.duration);
          }).observe({ type: 'longtask', buffered: false });
        });
        const metrics = async (): Promise<Metrics> =>
          Object.fromEntries(
            ((await cdp.send('Performance.getMetrics')).metrics as { name: string; value: number }[]).map((m) => [m.name, m.value]),
          );
        // BENCH_PROFILE=dir: a CPU profile of the main thread over the window (saved, and its top functions in the row).
        const profiling = process.env.BENCH_PROFILE;
        // BENCH_TRACE=dir: a Chrome trace over the window; each long task is summarized by what ran inside it.
        const tracing = process.env.BENCH_TRACE;
        const stopTrace = tracing ? await startTrace(browser, page, path.join(tracing, `map-${assets}-${draw}.trace.json`)) : null;
        const stopProfile = profiling ? await startCpuProfile(cdp, 200, path.join(profiling, `map-${assets}-${draw}.cpuprofile`)) : null;
        const before = await metrics();
        const diffsBefore = await page.evaluate(() => window.lightbarBench!.diffs);
        const streamedBefore = await page.evaluate(() => window.lightbarBench!.streamed());
        await page.waitForTimeout(WINDOW_MS);
        const after = await metrics();
        const top = stopProfile ? profileTop(await stopProfile()) : undefined;
        const diffsAfter = await page.evaluate(() => window.lightbarBench!.diffs);
        const streamedAfter = await page.evaluate(() => window.lightbarBench!.streamed());
        const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
        const insideLongTasks = stopTrace ? await stopTrace() : undefined;
        const windowS = after.Timestamp! - before.Timestamp! || WINDOW_MS / 1000;
        const round = (value: number) => Math.round(value * 10) / 10;
        rows.push({
          assets,
          draw,
          renderer,
          messagesPerSecond: rate,
          loadMs,
          windowS: round(windowS),
          scriptMsPerS: round(((after.ScriptDuration! - before.ScriptDuration!) * 1000) / windowS),
          taskMsPerS: round(((after.TaskDuration! - before.TaskDuration!) * 1000) / windowS),
          ...(top ? { profileTop: top } : {}),
          ...(insideLongTasks ? { insideLongTasks } : {}),
          longTasks: longTasks.length,
          longestTaskMs: round(Math.max(0, ...longTasks)),
          diffsPerS: round((diffsAfter - diffsBefore) / windowS),
          streamedPerS: Math.round((streamedAfter - streamedBefore) / windowS),
        });
        // A picture of what was measured (BENCH_SCREENSHOTS=dir), to see the map was drawn.
        const shots = process.env.BENCH_SCREENSHOTS;
        if (shots) await page.screenshot({ path: path.join(shots, `map-${assets}-${draw}.png`) });
        await page.close();
      }
  } finally {
    await browser.close();
    await server.close();
  }
  return rows;
}

/**
 * Runs the map bench and writes `map.json` into `dir`. `BENCH_MAP_SIZES` (e.g. "10000,50000") and
 * `BENCH_MAP_DRAWS` (e.g. "dashboard,none") choose the rows.
 */
export async function runMapBench(dir: string, machine: string): Promise<MapBenchRow[]> {
  const draws = (process.env.BENCH_MAP_DRAWS?.split(',') ?? ['all', 'assets', 'none', 'dashboard', 'dashboard-flat']) as MapDraw[];
  const sizes = process.env.BENCH_MAP_SIZES?.split(',').map(Number) ?? [10_000, 50_000];
  const rows = await benchMap(sizes, draws);
  console.log(
    '| assets | drawn | renderer | messages/s | load ms | main-thread script ms/s | all main-thread tasks ms/s | long tasks (≥ 50 ms) | longest ms | diffs/s | messages delivered/s |\n|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of rows) {
    console.log(
      `| ${r.assets} | ${r.draw} | ${r.renderer} | ${r.messagesPerSecond} | ${r.loadMs} | ${r.scriptMsPerS} | ${r.taskMsPerS} | ${r.longTasks} | ${r.longestTaskMs} | ${r.diffsPerS} | ${r.streamedPerS} |`,
    );
  }
  for (const r of rows) if (r.insideLongTasks?.length) console.log(`\n${r.assets} ${r.draw}, long tasks: ${r.insideLongTasks.join(' | ')}`);
  for (const r of rows)
    if (r.profileTop)
      console.log(
        `\n${r.assets} ${r.draw}, self time over the window (ms): ${r.profileTop.map((f) => `${f.name} ${f.selfMs}`).join('; ')}`,
      );
  fs.writeFileSync(
    path.join(dir, 'map.json'),
    `${JSON.stringify({ machine, date: new Date().toISOString(), windowS: rows[0]?.windowS, rows }, null, 2)}\n`,
  );
  return rows;
}
