import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import argon2 from 'argon2';

/**
 * Opaque tokens: 32 random bytes as base64url (characters a WebSocket subprotocol allows), stored
 * only as their SHA-256 hash.
 */
export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** argon2id with OWASP's parameters; tests set LIGHTBAR_FAST_HASH=1 for cheap ones (never in production). */
function argonOptions(): argon2.HashOptions {
  return process.env.LIGHTBAR_FAST_HASH === '1'
    ? { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 }
    : { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 };
}

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, argonOptions());
}

let dummyHash: Promise<string> | null = null;

/**
 * A hash of a random password no one knows, made once with the same parameters: an account that
 * does not exist, or has no password yet, is checked against it so it costs the same argon2 work
 * as a real one (OWASP Authentication Cheat Sheet, "Authentication Responses": no timing
 * difference tells which e-mails have accounts).
 */
function unknowableHash(): Promise<string> {
  dummyHash ??= hashPassword(newToken());
  return dummyHash;
}

/** Whether `password` matches `hash`; with no hash (no account, no password yet) the work is done anyway and the answer is false. */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  try {
    const matches = await argon2.verify(hash ?? (await unknowableHash()), password);
    return hash !== null && matches;
  } catch {
    return false;
  }
}
