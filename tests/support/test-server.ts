import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildServer, type LightbarServer } from '../../server/app';
import { hashPassword } from '../../server/auth/secrets';
import { readConfig } from '../../server/config';
import type { Database } from '../../server/db/connection';
import { ensureReferenceData } from '../../server/db/reference-data';
import { mailOutbox, organizationRelationships, organizations, roles, users } from '../../server/db/schema';
import type { ServerDeps } from '../../server/deps';
import { NO_LOAD_SHEDDING } from './load-shedding';
import { openTestDatabase } from './test-db';

process.env.LIGHTBAR_FAST_HASH = '1';

/** A clock tests can move: the server reads time only through it. */
export class TestClock {
  constructor(public ms = Date.UTC(2026, 10, 22, 12, 0, 0)) {}
  now = (): Date => new Date(this.ms);
  advance(ms: number): void {
    this.ms += ms;
  }
}

export const PASSWORD = 'Correct#Horse1';

export interface TestServer {
  app: LightbarServer;
  deps: ServerDeps;
  database: Database;
  clock: TestClock;
  dataDir: string;
  close(): Promise<void>;
  /** Signs in through POST /user_token and returns the access token. */
  signIn(email: string, password?: string): Promise<string>;
  /** Headers with the bearer token. */
  auth(token: string): { authorization: string };
  createOrg(values?: Partial<typeof organizations.$inferInsert>): Promise<typeof organizations.$inferSelect>;
  createUser(
    opts: { org: { id: string }; role: string; email?: string; password?: string } & Partial<typeof users.$inferInsert>,
  ): Promise<typeof users.$inferSelect>;
  relate(ownerOrgId: string, relatedOrgId: string, type: 'manager' | 'accessor'): Promise<void>;
}

let emailCounter = 0;

export interface TestServerOptions {
  /** Environment variables over the test defaults (SMTP_URL, LIGHTBAR_DEMO, …). */
  env?: Record<string, string>;
  /** Where the server's log lines (pino JSON, level info) go; without it the server logs nothing. */
  logStream?: { write(line: string): void };
}

/** A real server on a fresh database (PGlite in memory, or Postgres under `npm run test:pg`). */
export async function createTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const database = await openTestDatabase();
  await ensureReferenceData(database.db);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lightbar-test-'));
  const clock = new TestClock();
  const config = readConfig(
    {
      ...NO_LOAD_SHEDDING,
      DATA_DIR: dataDir,
      DIST_DIR: path.join(dataDir, 'no-dist'),
      PUBLIC_URL: 'http://lightbar.test',
      AUTH_RATE_LIMIT: '1000',
      // No test reaches a real provider: a closed local port (unreachable) unless a test names its fake.
      SAMSARA_API_URL: 'http://127.0.0.1:9',
      GEOTAB_API_URL: 'http://127.0.0.1:9/apiv1',
      // The WZDx import tests serve their feeds on 127.0.0.1; the guard itself is tested with it off.
      WZDX_FETCH_ALLOW_PRIVATE: '1',
      ...options.env,
    },
    '9.9.9',
  );
  const app = await buildServer(config, { database, now: clock.now, logStream: options.logStream });
  const deps = (app as FastifyInstance & { deps: ServerDeps }).deps;
  const roleIds = new Map((await database.db.select().from(roles)).map((role) => [role.name, role.id]));

  const server: TestServer = {
    app,
    deps,
    database,
    clock,
    dataDir,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    async signIn(email, password = PASSWORD) {
      const response = await app.inject({
        method: 'POST',
        url: '/user_token',
        payload: { grant_type: 'password', application: 'dashboard', username: email, password },
      });
      if (response.statusCode !== 200) throw new Error(`sign-in of ${email} failed: ${response.statusCode} ${response.body}`);
      return (response.json() as { access_token: string }).access_token;
    },
    auth: (token) => ({ authorization: `Bearer ${token}` }),
    async createOrg(values = {}) {
      const [org] = await database.db
        .insert(organizations)
        .values({ name: `Org ${++emailCounter}`, ...values })
        .returning();
      return org!;
    },
    async createUser({ org, role, email, password = PASSWORD, ...rest }) {
      const roleId = roleIds.get(role);
      if (roleId === undefined) throw new Error(`no role ${role}`);
      const [user] = await database.db
        .insert(users)
        .values({
          organizationId: org.id,
          email: email ?? `user${++emailCounter}@example.com`,
          firstname: 'Test',
          lastname: `User${emailCounter}`,
          roleId,
          passwordHash: await hashPassword(password),
          passwordChangedAt: clock.now(),
          lastActivityAt: clock.now(),
          ...rest,
        })
        .returning();
      return user!;
    },
    async relate(ownerOrgId, relatedOrgId, type) {
      await database.db
        .insert(organizationRelationships)
        .values({ organizationId: ownerOrgId, relatedOrganizationId: relatedOrgId, relationshipType: type });
    },
  };
  return server;
}

/** The newest mail to `email` in the outbox (without SMTP the outbox is the delivery); undefined when none. */
export async function lastMailTo(server: TestServer, email: string) {
  const [mail] = await server.database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.to, email))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(1);
  return mail;
}

export async function userRow(server: TestServer, id: string) {
  const [row] = await server.database.db.select().from(users).where(eq(users.id, id));
  return row!;
}
