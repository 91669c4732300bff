/**
 * part 2 §2 monthly reports with charts: the month's figures behind the four charts (incidents
 * per day, assets by status, time to scene, busiest areas), and the generated PDF rendered the way
 * a reader sees it: pdftotext for its words, pdftoppm to PNG for its pages and to PPM to find the
 * bars' ink (vector rectangles, not pasted images: the file holds no image object).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../src/domain/constants';
import { locations, locationThings, runs, things, thingTypes } from '../../server/db/schema';
import { createFileStore } from '../../server/files';
import { CHART_COLORS, generateMonthlyReport, monthlyFigures } from '../../server/jobs/monthly-report-pdf';
import { createTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
let org: { id: string };
const oct = (day: number, hour = 12, minute = 0) => new Date(Date.UTC(2026, 9, day, hour, minute));

async function thingOf(haasId: string, over: Partial<typeof things.$inferInsert> = {}): Promise<string> {
  const [type] = await server.database.db.select().from(thingTypes).where(eq(thingTypes.name, 'police'));
  const [row] = await server.database.db
    .insert(things)
    .values({ organizationId: org.id, haasId, nickname: haasId, thingTypeId: type!.id, createdAt: oct(1, 0), ...over })
    .returning({ id: things.id });
  return row!.id;
}

async function incident(start: Date, street: string | null, joins: [thingId: string, minutesLater: number][] = []) {
  const [row] = await server.database.db
    .insert(locations)
    .values({ organizationId: org.id, lat: 1, lng: 1, startTime: start, street })
    .returning({ id: locations.id });
  for (const [thingId, minutes] of joins) {
    await server.database.db
      .insert(locationThings)
      .values({ locationId: row!.id, thingId, startTime: new Date(start.getTime() + minutes * MINUTE_MS) });
  }
}

beforeAll(async () => {
  server = await createTestServer();
  org = await server.createOrg({ name: 'Chart County', timezone: 'UTC', createdAt: new Date(Date.UTC(2025, 0, 1)) });
  const e1 = await thingOf('E1');
  const e2 = await thingOf('E2');
  const driver = await thingOf('D1');
  await thingOf('IDLE1');
  await thingOf('OOS1', { inService: false });
  await server.database.db.insert(runs).values({ thingId: driver, runStart: oct(9, 8), runEnd: oct(9, 9), isActive: false });
  await incident(oct(3), 'Main St', [
    [e1, 3],
    [e2, 12],
  ]);
  await incident(oct(3, 18), 'Main St', [[e1, 45]]);
  await incident(oct(17), 'Oak Ave', [[e2, 7]]);
  await incident(oct(31, 23), null);
}, 120_000);
afterAll(() => server.close());

describe('part2 §2 monthly report charts', () => {
  it('counts the chart figures of the month', async () => {
    const figures = (await monthlyFigures(server.database.db, { organizationId: org.id, year: 2026, month: 10 }, server.clock.now()))!;
    expect(figures.incidentsPerDay).toHaveLength(31);
    expect(figures.incidentsPerDay[2]).toBe(2);
    expect(figures.incidentsPerDay[16]).toBe(1);
    expect(figures.incidentsPerDay[30]).toBe(1);
    expect(figures.incidentsPerDay.reduce((a, b) => a + b, 0)).toBe(4);
    expect(figures.assetsByStatus).toEqual({ incident: 2, ran: 1, idle: 1, out_of_service: 1 });
    // 3 min, 12 min, 45 min, 7 min → 0-5, 10-15, 30+, 5-10
    expect(figures.timeToScene).toEqual([1, 1, 1, 0, 0, 1]);
    expect(figures.busiestAreas).toEqual([
      { name: 'Main St', count: 2 },
      { name: 'Oak Ave', count: 1 },
      { name: 'Unknown street', count: 1 },
    ]);
  });

  it('the PDF has two pages; the second draws the four charts as vector bars with their titles, labels and values', async () => {
    const fileId = await generateMonthlyReport(server.deps, { organizationId: org.id, year: 2026, month: 10 });
    const pdf = (await createFileStore(server.dataDir).read(fileId))!;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-charts-'));
    try {
      const file = path.join(dir, 'report.pdf');
      fs.writeFileSync(file, pdf);
      // No pasted bitmaps: the charts are paths.
      expect(pdf.toString('latin1')).not.toMatch(/\/Subtype\s*\/Image/);

      execFileSync('pdftoppm', ['-png', '-r', '40', file, path.join(dir, 'page')]);
      const pngs = fs.readdirSync(dir).filter((name) => name.endsWith('.png'));
      expect(pngs).toHaveLength(2);
      for (const png of pngs) expect(fs.readFileSync(path.join(dir, png)).subarray(1, 4).toString('latin1')).toBe('PNG');

      const first = execFileSync('pdftotext', ['-layout', '-f', '1', '-l', '1', file, '-'], { encoding: 'utf8' });
      expect(first).toContain('Lightbar monthly report');
      expect(first).toContain('Chart County — October 2026');
      expect(first).not.toContain('Incidents per day');
      const second = execFileSync('pdftotext', ['-layout', '-f', '2', '-l', '2', file, '-'], { encoding: 'utf8' });
      for (const words of [
        'Incidents per day',
        'Day of the month',
        'Assets by status',
        'On incidents',
        'Driving only',
        'Idle',
        'Out of service',
        'Time to scene',
        '30+',
        'Minutes from the incident start to an asset joining it',
        'Busiest areas',
        'Main St',
        'Oak Ave',
        'Unknown street',
        'Incidents by street',
      ]) {
        expect(second).toContain(words);
      }

      // The bars' ink on page 2, not on page 1 (PPM: a header, then RGB bytes).
      const barInk = (page: number) => {
        const ppm = execFileSync('pdftoppm', ['-r', '40', '-f', String(page), '-l', String(page), file]);
        const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 40).toString('latin1'))!;
        const pixels = ppm.subarray(header[0].length);
        const [r, g, b] = [1, 3, 5].map((at) => parseInt(CHART_COLORS.bar.slice(at, at + 2), 16));
        let count = 0;
        for (let i = 0; i + 2 < pixels.length; i += 3) {
          if (Math.abs(pixels[i]! - r!) < 12 && Math.abs(pixels[i + 1]! - g!) < 12 && Math.abs(pixels[i + 2]! - b!) < 12) count += 1;
        }
        return count;
      };
      expect(barInk(1)).toBe(0);
      expect(barInk(2)).toBeGreaterThan(200);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
