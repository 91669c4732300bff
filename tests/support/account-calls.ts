/**
 * Helpers the account-administration suites share: a JSON call, the three kinds of token that
 * must be refused (none, revoked, expired), and table snapshots to prove nothing changed.
 */
import { asc, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import fc from 'fast-check';
import { issueTokens } from '../../server/auth/tokens';
import type { TestServer } from './test-server';

export interface Answer {
  status: number;
  body: Record<string, unknown> & { message?: string; error?: string };
  json: unknown;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One call with an optional bearer token, JSON body and extra headers (e.g. the mobile client's). */
export async function call(
  server: TestServer,
  method: Method,
  url: string,
  token: string | null,
  body?: unknown,
  headers: Readonly<Record<string, string>> = {},
): Promise<Answer> {
  const response = await server.app.inject({
    method,
    url,
    headers: {
      ...headers,
      ...(token ? server.auth(token) : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  const json: unknown = response.body ? JSON.parse(response.body) : null;
  const record = json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Answer['body']) : {};
  return { status: response.statusCode, body: record, json };
}

/** A token revoked through POST /revoke_token and one that expired long ago (for an existing user). */
export async function refusedTokens(server: TestServer, user: { id: string; email: string; organizationId: string }) {
  const revoked = await server.signIn(user.email);
  const answer = await server.app.inject({ method: 'POST', url: '/revoke_token', payload: { token: revoked } });
  if (answer.statusCode !== 200) throw new Error('revoke failed');
  const expired = await issueTokens(server.database.db, user.id, user.organizationId, new Date(Date.UTC(2000, 0, 1)));
  return { revoked, expired: expired.access_token };
}

/** Every row of a table, in a stable order, as JSON: equal snapshots mean nothing changed. */
export async function snapshot(server: TestServer, table: PgTable, orderBy: PgColumn | SQL): Promise<string> {
  const rows = await server.database.db.select().from(table).orderBy(asc(orderBy));
  return JSON.stringify(rows);
}

/** Values of every JSON kind, for fields that must reject most of them. */
export const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
);

/**
 * Bodies that are bad for a real reason: arbitrary JSON, or a near-valid body with one field
 * replaced by a value that field must refuse.
 */
export function badBodies(valid: Record<string, unknown>, badValues: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const poisoned = fc
    .constantFrom(...Object.keys(badValues))
    .chain((field) => badValues[field]!.map((value) => ({ ...valid, [field]: value })));
  return fc.oneof(fc.jsonValue({ maxDepth: 3 }), poisoned);
}

/** Strings that are never a usable id of an existing row (path fuzzing). */
export const badIds: fc.Arbitrary<string> = fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.uuid());
