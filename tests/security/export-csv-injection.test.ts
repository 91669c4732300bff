import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../src/domain/constants';
import { closures, locations, locationThings, points, things, thingSubtypes, thingTypes } from '../../server/db/schema';
import { neutralizeCsvCell } from '../../server/jobs/export-csv';
import { startJobRunner, type JobRunner } from '../../server/jobs/runner';
import { call } from '../support/account-calls';
import { parseCsv } from '../support/parse-csv';
import { createTestServer, type TestServer } from '../support/test-server';

/**
 * CSV injection (OWASP "CSV Injection"): a text cell that starts with `=`, `+`, `-`, `@`, a tab or
 * a carriage return is read by a spreadsheet as a formula. Every export type writes such a cell
 * with a single quote in front; numbers (a longitude of -97.7) stay numbers.
 *
 * Each case puts the dangerous prefix at the start of every text field an export writes, runs the
 * export through the real job, downloads the file through its signed link and reads the cells.
 */
const PREFIXES = ['=', '+', '-', '@', '\t', '\r'] as const;

/** The test clock's moment is 2026-11-22 12:00 UTC; the exports ask for the day before. */
const DAY_START = Date.UTC(2026, 10, 21);
const DAY_END = Date.UTC(2026, 10, 22);
const LNG = -97.7;
const LAT = -30.25;

let server: TestServer;
let runner: JobRunner;

beforeAll(async () => {
  server = await createTestServer();
  runner = startJobRunner(server.deps, { engine: server.database.engine });
}, 120_000);
afterAll(async () => {
  await runner.stop();
  await server.close();
});

/** A value for `field` that a spreadsheet would run, were it not neutralized. */
const evil = (prefix: string, field: string) => `${prefix}HYPERLINK("http://evil.example/${field}","x")`;
const neutralized = (value: string) => `'${value}`;

/** POST → the real job → the signed link → GET /files: the CSV rows as objects by column name. */
async function exportRows(token: string, body: Record<string, unknown>): Promise<Record<string, string>[]> {
  const created = await call(server, 'POST', '/organization/export', token, body);
  expect(created.status).toBe(201);
  await runner.runOnce();
  const link = await call(server, 'GET', `/organization/export/${String(created.body.id)}?is_downloadable=true`, token);
  expect(link.status).toBe(200);
  const file = await server.app.inject({ method: 'GET', url: String(link.body.file_url) });
  expect(file.statusCode).toBe(200);
  const [header, ...rows] = parseCsv(file.body);
  return rows.map((row) => Object.fromEntries(header!.map((column, i) => [column, row[i]!])));
}

describe.each(PREFIXES.map((prefix) => [JSON.stringify(prefix), prefix]))(
  'OWASP CSV injection: text cells starting with %s',
  (_name, prefix) => {
    let token: string;
    let orgId: string;
    let thingId: string;
    const v = (field: string) => evil(prefix, field);
    const body = (overrides: Record<string, unknown>) => ({
      title: 'Injection',
      export_start_time: new Date(DAY_START).toISOString(),
      export_end_time: new Date(DAY_END).toISOString(),
      use_utc: true,
      organization_id: orgId,
      thing_uuids: [thingId],
      ...overrides,
    });

    beforeAll(async () => {
      const db = server.database.db;
      const org = await server.createOrg();
      orgId = org.id;
      token = await server.signIn((await server.createUser({ org, role: 'ADMIN' })).email);
      const [type] = await db
        .insert(thingTypes)
        .values({ name: `evil-${PREFIXES.indexOf(prefix)}`, displayName: v('type') })
        .returning();
      const [subtype] = await db
        .insert(thingSubtypes)
        .values({ thingTypeId: type!.id, name: 'evil', displayName: v('subtype') })
        .returning();
      const [thing] = await db
        .insert(things)
        .values({
          organizationId: org.id,
          haasId: v('haas_id'),
          nickname: v('nickname'),
          thingTypeId: type!.id,
          thingSubtypeId: subtype!.id,
          vinNumber: v('vin'),
          licensePlateNumber: v('plate'),
          registryNumber: v('registry'),
          lat: LAT,
          lng: LNG,
        })
        .returning();
      thingId = thing!.id;
      const start = new Date(DAY_START + HOUR_MS);
      await db.insert(points).values({ thingId, lat: LAT, lng: LNG, speed: -1, timestamp: start });
      const [location] = await db
        .insert(locations)
        .values({
          organizationId: org.id,
          externalId: v('external_id'),
          displayName: v('name'),
          street: v('street'),
          alertMessage: v('alert'),
          lat: LAT,
          lng: LNG,
          startTime: start,
        })
        .returning();
      await db.insert(locationThings).values({ locationId: location!.id, thingId, startTime: start });
      await db.insert(closures).values({
        organizationId: org.id,
        closureType: 'manual',
        description: v('description'),
        alertMessage: v('closure_alert'),
        direction: v('direction'),
        streetStart: v('street_start'),
        streetEnd: v('street_end'),
        externalId: v('wzdx'),
        thingId,
        impactedLanes: [1, 2],
        startTime: start,
      });
    });

    it('incident export', async () => {
      const [row, ...more] = await exportRows(token, body({ export_type: 'incident' }));
      expect(more).toEqual([]);
      expect(row).toMatchObject({
        external_id: neutralized(v('external_id')),
        name: neutralized(v('name')),
        street: neutralized(v('street')),
        alert_message: neutralized(v('alert')),
        asset_ids: neutralized(v('haas_id')),
        asset_names: neutralized(v('nickname')),
        lat: String(LAT),
        lng: String(LNG),
      });
    });

    it('point export', async () => {
      const [row, ...more] = await exportRows(token, body({ export_type: 'point' }));
      expect(more).toEqual([]);
      expect(row).toMatchObject({
        asset_id: neutralized(v('haas_id')),
        asset_name: neutralized(v('nickname')),
        lat: String(LAT),
        lng: String(LNG),
        speed: '-1',
      });
    });

    it('asset (thing) export', async () => {
      const [row, ...more] = await exportRows(token, body({ export_type: 'thing', export_start_time: null, export_end_time: null }));
      expect(more).toEqual([]);
      expect(row).toMatchObject({
        asset_id: neutralized(v('haas_id')),
        name: neutralized(v('nickname')),
        type: neutralized(v('type')),
        subtype: neutralized(v('subtype')),
        vin_number: neutralized(v('vin')),
        license_plate_number: neutralized(v('plate')),
        registry_number: neutralized(v('registry')),
        lat: String(LAT),
        lng: String(LNG),
      });
    });

    it('closure export', async () => {
      const [row, ...more] = await exportRows(token, body({ export_type: 'closure', closures_to_include: ['manual'] }));
      expect(more).toEqual([]);
      expect(row).toMatchObject({
        closure_type: 'manual',
        description: neutralized(v('description')),
        asset_id: neutralized(v('haas_id')),
        asset_name: neutralized(v('nickname')),
        street_start: neutralized(v('street_start')),
        street_end: neutralized(v('street_end')),
        direction: neutralized(v('direction')),
        impacted_lanes: '1;2',
        alert_message: neutralized(v('closure_alert')),
        wzdx_id: neutralized(v('wzdx')),
      });
    });
  },
);

describe('OWASP CSV injection: safe text is written as it is', () => {
  it('a cell that only contains a formula character later, or a number written as text, is unchanged', () => {
    expect(neutralizeCsvCell('Engine 1; =2+3')).toBe('Engine 1; =2+3');
    expect(neutralizeCsvCell(-97.7)).toBe(-97.7);
    expect(neutralizeCsvCell(true)).toBe(true);
    expect(neutralizeCsvCell(null)).toBe(null);
    expect(neutralizeCsvCell('')).toBe('');
    // Text is text: a registry number typed as '-5' is neutralized like any other text.
    expect(neutralizeCsvCell('-5')).toBe("'-5");
  });
});
