import { and, eq, lte, sql } from 'drizzle-orm';
import { DAY_MS, MAX_FAILED_SIGN_INS, MINUTE_MS, SECOND_MS } from '../../src/domain/constants';
import type { Db } from '../db/connection';
import { signInThrottles } from '../db/schema';

/**
 * Sign-in throttling per e-mail and client address (OWASP Authentication Cheat Sheet, "Account
 * Lockout"; docs/decisions/design.md, the lockout). The attempt that reaches MAX_FAILED_SIGN_INS
 * makes that pair wait SIGN_IN_FIRST_WAIT_MS; each later attempt after a wait doubles it, up to
 * SIGN_IN_MAX_WAIT_MS. A waiting pair is refused without its password being checked. Other
 * addresses are not affected, so a stranger cannot lock the owner out, and the unlock link clears
 * every pair of the e-mail.
 */
export const SIGN_IN_FIRST_WAIT_MS = SECOND_MS;
export const SIGN_IN_MAX_WAIT_MS = 15 * MINUTE_MS;
/** Failures older than this (with no wait running) are forgotten: the next attempt counts from 1. */
export const SIGN_IN_FAILURE_MEMORY_MS = DAY_MS;
/** 2^20 s is far past the cap: keeps the exponent, and the arithmetic, small. */
const MAX_DOUBLINGS = 20;

/** The throttle key of an e-mail: the same for every spelling that finds the same account. */
export function signInEmailKey(email: string): string {
  return email.trim().toLowerCase();
}

const iso = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * Counts an attempt before its password is checked, in one INSERT … ON CONFLICT DO UPDATE …
 * RETURNING, so concurrent attempts each get their own number and the attempt that reaches the
 * limit starts the wait before any later one is checked. Returns the attempt's number, or null
 * when the pair is waiting (the attempt is refused, not counted, but remembered in `refused`).
 */
export async function claimSignInAttempt(db: Db, emailKey: string, address: string, now: Date): Promise<number | null> {
  const table = signInThrottles;
  const waiting = sql`(${table.blockedUntil} is not null and ${table.blockedUntil} > ${iso(now)})`;
  const forgotten = sql`(${table.updatedAt} <= ${iso(new Date(now.getTime() - SIGN_IN_FAILURE_MEMORY_MS))})`;
  const next = sql`(case when ${forgotten} then 1 else ${table.failures} + 1 end)`;
  const wait = sql`least(${SIGN_IN_FIRST_WAIT_MS}::double precision * power(2, least(${next} - ${MAX_FAILED_SIGN_INS}, ${MAX_DOUBLINGS})), ${SIGN_IN_MAX_WAIT_MS})`;
  const [row] = await db
    .insert(table)
    // A first attempt never reaches the limit (MAX_FAILED_SIGN_INS > 1).
    .values({ emailKey, address, failures: 1, blockedUntil: null, refused: 0, updatedAt: now })
    .onConflictDoUpdate({
      target: [table.emailKey, table.address],
      // Every expression reads the row as it was before this attempt.
      set: {
        failures: sql`case when ${waiting} then ${table.failures} else ${next} end`,
        blockedUntil: sql`case when ${waiting} then ${table.blockedUntil} when ${next} >= ${MAX_FAILED_SIGN_INS} then ${iso(now)} + ${wait} * interval '1 millisecond' else null end`,
        refused: sql`case when ${waiting} then ${table.refused} + 1 else 0 end`,
        updatedAt: sql`case when ${waiting} then ${table.updatedAt} else ${iso(now)} end`,
      },
    })
    .returning({ failures: table.failures, refused: table.refused });
  if (!row || row.refused > 0) return null;
  return row.failures;
}

/**
 * The right password was given as attempt `attempt`: it signs in unless, meanwhile, other attempts
 * took the pair to the limit, or were refused while this one held the wait; then the pair is
 * locked, whatever order they arrived in. A success forgets the pair's failures.
 */
export async function settleSignInSuccess(db: Db, emailKey: string, address: string, attempt: number): Promise<boolean> {
  const table = signInThrottles;
  const pair = and(eq(table.emailKey, emailKey), eq(table.address, address));
  // Below the limit nobody else may have reached it; past it this attempt held the wait alone.
  const allowed = Math.max(attempt, MAX_FAILED_SIGN_INS - 1);
  const stands = and(lte(table.failures, allowed), eq(table.refused, 0));
  const deleted = await db.delete(table).where(and(pair, stands)).returning({ failures: table.failures });
  if (deleted.length > 0) return true;
  const [left] = await db.select({ failures: table.failures, refused: table.refused }).from(table).where(pair);
  // No row: an unlock, a reset or another success cleared it.
  return left === undefined || (left.failures <= allowed && left.refused === 0);
}

/** The unlock link and a password reset clear every pair of the e-mail (docs/decisions/spec.md "the unlock flow"). */
export async function clearSignInThrottles(db: Db, emailKey: string): Promise<void> {
  await db.delete(signInThrottles).where(eq(signInThrottles.emailKey, emailKey));
}
