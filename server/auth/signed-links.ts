import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MINUTE_MS, SECOND_MS } from '../../src/domain/constants';

/**
 * Short-lived signed download links: `/files/{fileId}?expires={epoch s}&signature=…`,
 * the signature an HMAC-SHA256 of the file id and the expiry. The secret is FILE_LINK_SECRET, or
 * one generated on first use and kept in `${dataDir}/link-secret` (mode 0600) so links survive a
 * restart.
 */
export const FILE_LINK_TTL_MS = 5 * MINUTE_MS;
export const FILE_LINK_PATH = '/files';
const SECRET_FILE = 'link-secret';
const SECRET_BYTES = 32;

export type LinkCheck = 'ok' | 'invalid' | 'expired';

export interface SignedLinks {
  /** The link path, relative to the server root (the dashboard opens it on its own origin). */
  sign(fileId: string, now: Date): string;
  verify(fileId: string, expires: string | undefined, signature: string | undefined, now: Date): LinkCheck;
}

/** The secret: FILE_LINK_SECRET (the configuration's `fileLinkSecret`), else the kept one, else a new one written once. */
export function linkSecret(dataDir: string, configured: string | undefined): Buffer {
  if (configured) return Buffer.from(configured, 'utf8');
  const file = path.join(dataDir, SECRET_FILE);
  try {
    const kept = fs.readFileSync(file, 'utf8').trim();
    if (kept) return Buffer.from(kept, 'base64url');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(SECRET_BYTES);
  try {
    // 'wx': two processes starting together keep whichever wrote first.
    fs.writeFileSync(file, secret.toString('base64url'), { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url');
  }
}

function mac(secret: Buffer, fileId: string, expires: string): string {
  return createHmac('sha256', secret).update(`${fileId}\n${expires}`).digest('base64url');
}

export function createSignedLinks(secret: Buffer, ttlMs = FILE_LINK_TTL_MS): SignedLinks {
  return {
    sign(fileId, now) {
      const expires = String(Math.ceil((now.getTime() + ttlMs) / SECOND_MS));
      const signature = mac(secret, fileId, expires);
      return `${FILE_LINK_PATH}/${encodeURIComponent(fileId)}?expires=${expires}&signature=${signature}`;
    },
    verify(fileId, expires, signature, now) {
      if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return 'invalid';
      const expected = Buffer.from(mac(secret, fileId, expires));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
      return Number(expires) * SECOND_MS > now.getTime() ? 'ok' : 'expired';
    },
  };
}

const cache = new Map<string, SignedLinks>();

/** The links of an installation (its configured secret, or one per data folder, read once). */
export function signedLinksFor(config: { dataDir: string; fileLinkSecret: string | undefined }): SignedLinks {
  const key = `${config.dataDir}\n${config.fileLinkSecret ?? ''}`;
  let links = cache.get(key);
  if (!links) {
    links = createSignedLinks(linkSecret(config.dataDir, config.fileLinkSecret));
    cache.set(key, links);
  }
  return links;
}
