/**
 * The live map in Chromium (issue 5 Benchmark, issue 7): the bench page runs the real live worker
 * engine, bridge and store over a synthetic network (bench/map-page/) and draws the assets layer
 * on the standalone map; the stream is one point message per asset per second. After the initial
 * load has settled, over a fixed window, it measures the main thread's scripting time per second
 * (Chrome DevTools Protocol `Performance.getMetrics` ScriptDuration, and TaskDuration for all
 * main-thread work) and counts long tasks (≥ 50 ms, PerformanceObserver 'longtask').
 * Headless Chromium here rasterizes WebGL in software: frames per second are not a result.
 */
import { chromium } from '@playwright/test';
import { startMapPage } from './map-page/serve';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const SETTLE_MS = 5_000;
const WINDOW_MS = 10_000;
const LOAD_TIMEOUT_MS = 180_000;

export interface MapBenchRow {
  assets: number;
  /** What the page draws: the whole map, the assets layer only, or nothing (the live pipeline alone). */
  draw: MapDraw;
  messagesPerSecond: number;
  loadMs: number;
  windowS: number;
  /** Main-thread JavaScript per second of wall time (ms/s); /10 gives per cent busy. */
  scriptMsPerS: number;
  /** All main-thread task time per second (script, style, layout, GL command issue) (ms/s). */
  taskMsPerS: number;
  longTasks: number;
  longestTaskMs: number;
  diffsPerS: number;
  /** Point messages the synthetic socket delivered to the worker per second (the rate achieved). */
  streamedPerS: number;
}

type Metrics = Record<string, number>;

export type MapDraw = 'all' | 'assets' | 'none';

export async function benchMap(sizes: readonly number[], draws: readonly MapDraw[] = ['all', 'none']): Promise<MapBenchRow[]> {
  const server = await startMapPage('build');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  const rows: MapBenchRow[] = [];
  try {
    for (const assets of sizes) for (const draw of draws) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Performance.enable');
      const started = Date.now();
      await page.goto(`${server.url}?assets=${assets}&rate=${assets}&zoom=10&spread=0.5&tiles=none&draw=${draw}`);
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
      const metrics = async (): Promise<Metrics> => Object.fromEntries(((await cdp.send('Performance.getMetrics')).metrics as { name: string; value: number }[]).map((m) => [m.name, m.value]));
      const before = await metrics();
      const diffsBefore = await page.evaluate(() => window.lightbarBench!.diffs);
      const streamedBefore = await page.evaluate(() => window.lightbarBench!.streamed());
      await page.waitForTimeout(WINDOW_MS);
      const after = await metrics();
      const diffsAfter = await page.evaluate(() => window.lightbarBench!.diffs);
      const streamedAfter = await page.evaluate(() => window.lightbarBench!.streamed());
      const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
      const windowS = (after.Timestamp! - before.Timestamp!) || WINDOW_MS / 1000;
      const round = (value: number) => Math.round(value * 10) / 10;
      rows.push({
        assets,
        draw,
        messagesPerSecond: assets,
        loadMs,
        windowS: round(windowS),
        scriptMsPerS: round(((after.ScriptDuration! - before.ScriptDuration!) * 1000) / windowS),
        taskMsPerS: round(((after.TaskDuration! - before.TaskDuration!) * 1000) / windowS),
        longTasks: longTasks.length,
        longestTaskMs: round(Math.max(0, ...longTasks)),
        diffsPerS: round((diffsAfter - diffsBefore) / windowS),
        streamedPerS: Math.round((streamedAfter - streamedBefore) / windowS),
      });
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return rows;
}
