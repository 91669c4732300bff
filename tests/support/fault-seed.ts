import { eq } from 'drizzle-orm';
import { hashPassword, hashToken } from '../../server/auth/secrets';
import type { Db } from '../../server/db/connection';
import { ensureReferenceData } from '../../server/db/reference-data';
import { apiKeys, organizations, roles, things, thingTypes, users } from '../../server/db/schema';

export const FAULT_EMAIL = 'fault@example.com';
export const FAULT_PASSWORD = 'Fault#Pass1';
export const FAULT_API_KEY = 'lb_fault_test_key_000001';

export interface FaultFleet {
  organizationId: string;
  /** The assets, in order, with their device ids. */
  things: { id: string; haasId: string }[];
}

/**
 * One organization with an admin (FAULT_EMAIL / FAULT_PASSWORD), an API key for POST /ingest
 * (FAULT_API_KEY) and `count` police cars, on a database the servers under test then open: a
 * fleet no simulator moves, so every position is the test's own.
 */
export async function seedFaultFleet(db: Db, count: number): Promise<FaultFleet> {
  await ensureReferenceData(db);
  const [org] = await db.insert(organizations).values({ name: 'Fault Org' }).returning();
  const [role] = await db.select().from(roles).where(eq(roles.name, 'ADMIN'));
  const now = new Date();
  const [user] = await db
    .insert(users)
    .values({
      organizationId: org!.id,
      email: FAULT_EMAIL,
      firstname: 'F',
      lastname: 'T',
      roleId: role!.id,
      passwordHash: await hashPassword(FAULT_PASSWORD),
      passwordChangedAt: now,
      lastActivityAt: now,
    })
    .returning();
  await db.insert(apiKeys).values({
    userId: user!.id,
    organizationId: org!.id,
    description: 'fault',
    tokenHash: hashToken(FAULT_API_KEY),
    tokenPrefix: FAULT_API_KEY.slice(0, 6),
  });
  const [type] = await db.select().from(thingTypes).where(eq(thingTypes.name, 'police'));
  const rows = await db
    .insert(things)
    .values(
      Array.from({ length: count }, (_, i) => ({
        organizationId: org!.id,
        haasId: `HA5-FAULT-${i + 1}`,
        thingTypeId: type!.id,
        lat: 30.27,
        lng: -97.74,
      })),
    )
    .returning();
  return { organizationId: org!.id, things: rows.map((row) => ({ id: row.id, haasId: row.haasId })) };
}

/** Signs in through POST /user_token (the dashboard's password grant) and answers the access token. */
export async function signInFault(base: string): Promise<string> {
  const answer = await fetch(`${base}/user_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'password', application: 'dashboard', username: FAULT_EMAIL, password: FAULT_PASSWORD }),
  });
  if (answer.status !== 200) throw new Error(`sign-in answered ${answer.status}: ${await answer.text()}`);
  return ((await answer.json()) as { access_token: string }).access_token;
}

/** Posts one position of a device through POST /ingest with FAULT_API_KEY; answers the status and body. */
export async function ingestPoint(base: string, haasId: string, lat: number): Promise<{ status: number; body: unknown }> {
  const answer = await fetch(`${base}/ingest`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': FAULT_API_KEY },
    body: JSON.stringify({
      messages: [{ type: 'point', haas_id: haasId, lat, lng: -97.74, speed: 20, timestamp: new Date().toISOString() }],
    }),
  });
  const text = await answer.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: answer.status, body };
}
