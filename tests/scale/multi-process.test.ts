import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eventsChannelIdentifier, serverFrameSchema, type LiveMessage } from '../../src/domain/live-message';
import { hashPassword, hashToken } from '../../server/auth/secrets';
import { ROOT_DIR } from '../../server/config';
import { freePort, spawnServer, type SpawnedServer } from '../support/spawn-server';
import { openDatabase, type Database } from '../../server/db/connection';
import { ensureReferenceData } from '../../server/db/reference-data';
import { apiKeys, organizations, roles, things, thingTypes, users } from '../../server/db/schema';

/**
 * Scale-out (ARCHITECTURE "Embedded default and scale-out"): two server processes on one Postgres and one NATS. Runs under
 * `npm run test:pg` (TEST_DATABASE_URL and TEST_NATS_URL set; CI requires both).
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const natsUrl = process.env.TEST_NATS_URL;
const enabled = Boolean(adminUrl && natsUrl);

type Proc = SpawnedServer;

function startProcess(databaseUrl: string, port: number): Promise<Proc> {
  return spawnServer({
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl,
    LIGHTBAR_DEMO: '0',
    SIM_ASSETS: '0',
    DATA_DIR: path.join(ROOT_DIR, '.tmp', `proc-${port}`),
  });
}

const stopProcess = (proc: Proc) => proc.stop();

describe.runIf(enabled)('two server processes on one Postgres and one NATS', () => {
  const name = `lightbar_scale_${randomBytes(5).toString('hex')}`;
  let databaseUrl: string;
  let database: Database;
  let a: Proc;
  let b: Proc;
  let portB: number;
  const apiKey = 'lb_scale_test_key_000001';
  let orgId: string;
  let thingId: string;
  let token: string;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(adminUrl!);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    database = await openDatabase({ url: databaseUrl });
    await ensureReferenceData(database.db);
    const [org] = await database.db.insert(organizations).values({ name: 'Scale Org' }).returning();
    orgId = org!.id;
    const [role] = await database.db.select().from(roles).where(eq(roles.name, 'ADMIN'));
    const [user] = await database.db
      .insert(users)
      .values({
        organizationId: orgId,
        email: 'scale@example.com',
        firstname: 'S',
        lastname: 'C',
        roleId: role!.id,
        passwordHash: await hashPassword('Scale#Pass1'),
        passwordChangedAt: new Date(),
        lastActivityAt: new Date(),
      })
      .returning();
    await database.db
      .insert(apiKeys)
      .values({ userId: user!.id, organizationId: orgId, description: 'scale', tokenHash: hashToken(apiKey), tokenPrefix: 'lb_sca' });
    const [type] = await database.db.select().from(thingTypes).where(eq(thingTypes.name, 'police'));
    const [thing] = await database.db
      .insert(things)
      .values({ organizationId: orgId, haasId: 'HA5-SCALE-1', thingTypeId: type!.id, lat: 30.27, lng: -97.74 })
      .returning();
    thingId = thing!.id;

    portB = await freePort();
    [a, b] = await Promise.all([startProcess(databaseUrl, await freePort()), startProcess(databaseUrl, portB)]);
    const signIn = await fetch(`${a.url}/user_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'password', application: 'dashboard', username: 'scale@example.com', password: 'Scale#Pass1' }),
    });
    token = ((await signIn.json()) as { access_token: string }).access_token;
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map(stopProcess));
    await database?.close();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  async function socketOn(proc: Proc) {
    const messages: LiveMessage[] = [];
    const ws = new WebSocket(`${proc.url.replace('http', 'ws')}/cable`, ['actioncable-v1-json', token]);
    let confirmed!: () => void;
    const ready = new Promise<void>((resolve) => (confirmed = resolve));
    ws.on('message', (data) => {
      const frame = serverFrameSchema.parse(JSON.parse(data.toString()));
      if ('type' in frame && frame.type === 'confirm_subscription') confirmed();
      if ('message' in frame && typeof frame.message === 'object') messages.push(frame.message);
    });
    ws.on('open', () => ws.send(JSON.stringify({ command: 'subscribe', identifier: eventsChannelIdentifier(orgId) })));
    await ready;
    return { ws, messages };
  }

  async function ingestOn(proc: Proc, lat: number) {
    const response = await fetch(`${proc.url}/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({
        messages: [{ type: 'point', haas_id: 'HA5-SCALE-1', lat, lng: -97.74, speed: 20, timestamp: new Date().toISOString() }],
      }),
    });
    expect(response.status).toBe(200);
  }

  it('a point ingested on process A reaches a socket client connected to process B', async () => {
    const client = await socketOn(b);
    await ingestOn(a, 30.2801);
    await expect.poll(() => client.messages.find((m) => m.type === 'point' && m.lat === 30.2801), { timeout: 10_000 }).toBeTruthy();
    expect(client.messages.find((m) => m.type === 'point')).toMatchObject({ thing_id: thingId });
    client.ws.close();
  }, 30_000);

  it('after B restarts, the client reconnects and catches up through the incremental calls', async () => {
    const before = await fetch(`${b.url}/organization/things`, { headers: { authorization: `Bearer ${token}` } });
    const since = ((await before.json()) as { meta: { server_timestamp: string } }).meta.server_timestamp;
    await stopProcess(b);
    await ingestOn(a, 30.2902); // missed by B's clients while it is down
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // A flushes the asset row once a second
    b = await startProcess(databaseUrl, portB);
    const client = await socketOn(b);
    const catchUp = await fetch(`${b.url}/organization/things?last_updated_timestamp=${encodeURIComponent(since)}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await catchUp.json()) as { data: { id: string; lat: number }[] };
    expect(body.data).toContainEqual(expect.objectContaining({ id: thingId, lat: 30.2902 }));
    await ingestOn(a, 30.3003);
    await expect.poll(() => client.messages.find((m) => m.type === 'point' && m.lat === 30.3003), { timeout: 10_000 }).toBeTruthy();
    client.ws.close();
  }, 120_000);
});
