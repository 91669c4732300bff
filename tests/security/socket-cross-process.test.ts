/**
 * Scale-out (ARCHITECTURE "Embedded default and scale-out"): two server instances on one database
 * and one NATS. A revocation or an access change made through one instance reaches the sockets
 * held by the other (the change travels on the bus's control subject). Runs where TEST_NATS_URL
 * is set (`npm run test:pg`), like tests/scale/multi-process.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsChannelIdentifier } from '../../src/domain/live-message';
import { buildServer, type LightbarServer } from '../../server/app';
import { hashPassword } from '../../server/auth/secrets';
import { readConfig } from '../../server/config';
import type { Database } from '../../server/db/connection';
import { ensureReferenceData } from '../../server/db/reference-data';
import { organizationRelationships, organizations, roles, users } from '../../server/db/schema';
import { connectNatsBus } from '../../server/live/bus';
import { SOCKET_CLOSE } from '../../server/live/cable';
import { NO_LOAD_SHEDDING } from '../support/load-shedding';
import { openTestDatabase } from '../support/test-db';
import { PASSWORD, TestClock } from '../support/test-server';
import { until } from '../support/until';
import { connect, isType, subscribe } from './socket-harness';

const natsUrl = process.env.TEST_NATS_URL;

describe.runIf(natsUrl)('socket: changes reach the sockets of every server instance', () => {
  let database: Database;
  let dataDir: string;
  let a: LightbarServer;
  let b: LightbarServer;
  let baseB: string;
  let orgId: string;
  let accessedId: string;
  let email: string;
  let counter = 0;

  beforeAll(async () => {
    database = await openTestDatabase();
    await ensureReferenceData(database.db);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-xproc-'));
    const clock = new TestClock();
    const config = readConfig(
      {
        DATA_DIR: dataDir,
        DIST_DIR: path.join(dataDir, 'no-dist'),
        PUBLIC_URL: 'http://lightbar.test',
        AUTH_RATE_LIMIT: '1000',
        ...NO_LOAD_SHEDDING,
      },
      '9.9.9',
    );
    a = await buildServer(config, { database, now: clock.now, bus: await connectNatsBus(natsUrl!, 'lightbar-test-a') });
    b = await buildServer(config, { database, now: clock.now, bus: await connectNatsBus(natsUrl!, 'lightbar-test-b') });
    const [org] = await database.db.insert(organizations).values({ name: 'Caldwell County' }).returning();
    const [accessed] = await database.db.insert(organizations).values({ name: 'Lockhart PD' }).returning();
    orgId = org!.id;
    accessedId = accessed!.id;
    await database.db
      .insert(organizationRelationships)
      .values({ organizationId: accessedId, relatedOrganizationId: orgId, relationshipType: 'accessor' });
    baseB = (await b.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await a?.deps?.bus.close();
    await b?.deps?.bus.close();
    await database?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function createUser(organizationId: string, role: string): Promise<string> {
    const [roleRow] = (await database.db.select().from(roles)).filter((r) => r.name === role);
    email = `xproc${++counter}-${Date.now()}@example.com`;
    await database.db.insert(users).values({
      organizationId,
      email,
      firstname: 'Cross',
      lastname: 'Process',
      roleId: roleRow!.id,
      passwordHash: await hashPassword(PASSWORD),
      passwordChangedAt: new Date(Date.UTC(2026, 10, 22)),
      lastActivityAt: new Date(Date.UTC(2026, 10, 22)),
    });
    const response = await a.inject({
      method: 'POST',
      url: '/user_token',
      payload: { grant_type: 'password', application: 'dashboard', username: email, password: PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    return (response.json() as { access_token: string }).access_token;
  }

  it('a token revoked through one instance closes its socket on the other', async () => {
    const token = await createUser(orgId, 'USER');
    const client = await connect(baseB, token);
    const revoked = await a.inject({ method: 'POST', url: '/revoke_token', payload: { token } });
    expect(revoked.statusCode).toBe(200);
    expect(await client.closed).toEqual({ code: SOCKET_CLOSE.revoked.code, reason: SOCKET_CLOSE.revoked.reason });
  });

  it('an organization deleted through one instance ends the subscriptions to it on the other', async () => {
    const token = await createUser(orgId, 'USER');
    const client = await connect(baseB, token);
    subscribe(client, accessedId);
    await until(() => client.frames.find(isType('confirm_subscription')), 'confirm');
    const staffOrg = (await database.db.insert(organizations).values({ name: 'Lightbar Staff' }).returning())[0]!;
    const engineer = await createUser(staffOrg.id, 'ENGINEER');
    const deleted = await a.inject({
      method: 'DELETE',
      url: `/organization/${accessedId}`,
      headers: { authorization: `Bearer ${engineer}` },
    });
    expect(deleted.statusCode).toBe(200);
    expect(await until(() => client.frames.find(isType('reject_subscription')), 'the dropped subscription')).toEqual({
      type: 'reject_subscription',
      identifier: eventsChannelIdentifier(accessedId),
    });
    client.ws.close();
  });
});
