import { performance } from 'node:perf_hooks';
import { SECOND_MS } from '../src/domain/constants';
import { seedDemo } from '../server/seed/demo';
import { FleetSimulator } from '../server/sim/simulator';
import { createTestServer } from '../tests/support/test-server';

export interface SimBenchRow {
  assets: number;
  seedMs: number;
  loadMs: number;
  messagesPerTickMean: number;
  messagesPerTickMax: number;
  msPerTickMean: number;
  msPerTickP95: number;
  flushMsMean: number;
}

/**
 * The demo seeded at each size, then 60 simulated seconds (one tick a second): messages
 * per tick and milliseconds per tick (simulator and ingest); the ingest's once-a-second flush of
 * the changed assets and points to the database apart. The first 20 s settle the report phases.
 */
export async function benchSimulator(sizes: readonly number[]): Promise<SimBenchRow[]> {
  const rows: SimBenchRow[] = [];
  for (const assets of sizes) {
    const server = await createTestServer();
    try {
      let started = performance.now();
      await seedDemo(server.deps, { assets, seed: 7 });
      const seedMs = performance.now() - started;
      const ingest = server.app.ingest!;
      await ingest.reload();
      started = performance.now();
      const sim = await new FleetSimulator(server.deps, ingest, { assets, seed: 11 }).load();
      const loadMs = performance.now() - started;
      const messages: number[] = [];
      const tickMs: number[] = [];
      const flushMs: number[] = [];
      for (let i = 0; i < 60; i += 1) {
        server.clock.advance(SECOND_MS);
        await sim.tick(server.clock.now());
        messages.push(sim.stats().lastBatch);
        tickMs.push(sim.stats().lastTickMs);
        started = performance.now();
        await ingest.flush();
        flushMs.push(performance.now() - started);
      }
      const settled = (list: number[]) => list.slice(20);
      const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
      const p95 = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length * 0.95)] ?? 0;
      rows.push({
        assets: sim.stats().assets,
        seedMs: Math.round(seedMs),
        loadMs: Math.round(loadMs),
        messagesPerTickMean: Math.round(mean(settled(messages))),
        messagesPerTickMax: Math.max(...settled(messages)),
        msPerTickMean: +mean(settled(tickMs)).toFixed(1),
        msPerTickP95: +p95(settled(tickMs)).toFixed(1),
        flushMsMean: +mean(settled(flushMs)).toFixed(1),
      });
    } finally {
      await server.close();
    }
  }
  return rows;
}
