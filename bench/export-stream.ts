// `npx tsx bench/export-stream.ts [rows]`: a point export of 1,000,000 rows (part 2 §4 "large
// exports stream") run by the export job on PGlite, sampling the process's RSS every 50 ms; prints
// the rows written, the time, the CSV's size and the peak RSS above the RSS before the export.
// A figure for bench/README.md, never asserted in tests.
import fs from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { exports, points, things, thingTypes } from '../server/db/schema';
import { createFileStore } from '../server/files';
import { runExport } from '../server/jobs/export-csv';
import { createTestServer } from '../tests/support/test-server';

const rows = Number(process.argv[2] ?? 1_000_000);
const server = await createTestServer();
const db = server.database.db;
const org = await server.createOrg({ name: 'Bench County', timezone: 'UTC' });
const user = await server.createUser({ org, role: 'ADMIN' });
const [type] = await db.select().from(thingTypes).where(eq(thingTypes.name, 'police'));
const [thing] = await db.insert(things).values({ organizationId: org.id, haasId: 'BENCH-1', thingTypeId: type!.id }).returning();
const start = Date.UTC(2026, 10, 1);
console.log(`inserting ${rows} points...`);
await db.execute(
  sql`insert into ${points} (thing_id, lat, lng, speed, course, accuracy, timestamp)
      select ${thing!.id}, 30.2 + (g % 1000) / 1e5, -97.7 - (g % 1000) / 1e5, g % 70, g % 360, 5, to_timestamp(${start / 1000} + g * 0.5)
      from generate_series(1, ${rows}) as g`,
);
const [row] = await db
  .insert(exports)
  .values({
    organizationId: org.id,
    requestedBy: user.id,
    exportType: 'point',
    title: 'Bench',
    exportStartTime: new Date(start),
    exportEndTime: new Date(start + rows * 500 + 1000),
    useUtc: true,
    options: { thing_uuids: [thing!.id] },
    requestedAt: server.clock.now(),
  })
  .returning();
global.gc?.();
const before = process.memoryUsage().rss;
let peak = before;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
const began = performance.now();
await runExport(server.deps, row!.id);
const seconds = (performance.now() - began) / 1000;
clearInterval(sampler);
const [done] = await db.select().from(exports).where(eq(exports.id, row!.id));
const size = fs.statSync(createFileStore(server.dataDir).pathOf(done!.fileId!) ?? '').size;
const mb = (bytes: number) => Math.round(bytes / 1e6);
console.log(
  `rows written ${done!.rowsWritten} of ${done!.rowsTotal}, ${seconds.toFixed(1)} s, CSV ${mb(size)} MB, RSS before ${mb(before)} MB, peak ${mb(peak)} MB (+${mb(peak - before)} MB)`,
);
await server.close();
