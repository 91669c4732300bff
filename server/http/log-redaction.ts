/**
 * OWASP Logging Cheat Sheet: access tokens, passwords, API keys and session identifiers must not
 * be logged. The request log names what was asked (method, path, query) with every secret masked:
 * query values whose name looks secret, the token segment of the mailed reset and unlock links
 * (part 1 §2 /welcome routes), and the headers that carry credentials (the socket's token travels
 * as the second subprotocol, part 1 §4).
 */
import type { FastifyRequest } from 'fastify';

export const REDACTED = '[REDACTED]';

/** Query names whose value is a credential: access_token, refresh_token, unlock_token, password, api_key, client_secret, … */
const SECRET_NAME = /token|passw|secret|api[-_]?key|auth|session|signature|credential|^code$|^key$/i;

/** Client routes whose last path segment is a one-time token mailed to a user. */
const TOKEN_PATH = /^(\/welcome\/(?:reset|unlock)\/[^/?]+\/)[^/?]+/;

/** Headers that carry credentials. */
export const SECRET_HEADERS = [
  'authorization',
  'x-api-key',
  'cookie',
  'set-cookie',
  'proxy-authorization',
  'sec-websocket-protocol',
] as const;

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** The URL with every secret-looking query value and path token masked; the rest as it came. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  const pathPart = (at < 0 ? url : url.slice(0, at)).replace(TOKEN_PATH, `$1${REDACTED}`);
  if (at < 0) return pathPart;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const name = pair.slice(0, eq);
      return SECRET_NAME.test(decodeName(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${pathPart}?${query}`;
}

/** Fastify's request serializer (method, url, host, address) with the URL masked. */
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** pino `redact` paths: any code that logs a request or its headers gets them masked too. */
export const REDACT_PATHS = SECRET_HEADERS.flatMap((name) => [
  `req.headers["${name}"]`,
  `headers["${name}"]`,
  `request.headers["${name}"]`,
]);
