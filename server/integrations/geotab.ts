/**
 * Geotab (part 2 §9 fleet telematics provider): JSON-RPC over `POST {GEOTAB_API_URL}`, method
 * `Authenticate` with the database, user name and password. Geotab answers HTTP 200 either way:
 * `result` (the session's credentials) when it took them, `error` when not —
 * `InvalidUserException` for a wrong user or password, `DbUnavailableException` for an unknown
 * database. The stored server is the account's Geotab server, kept for the record: the call
 * always goes to GEOTAB_API_URL (a setting never chooses the address the server connects to).
 */
import { INTEGRATION_TEST_REASONS } from '../../src/domain/integration';
import { byStatus, callProvider, missingSetting, OK, PROVIDER_TIMEOUT_MS, refused, type ProviderAdapter } from './provider';

/** The JSON-RPC errors that mean the credentials were not taken. */
const REFUSALS = new Set(['InvalidUserException', 'DbUnavailableException']);

/** An exception's name as Geotab writes it; anything else is not repeated to the user. */
const ERROR_NAME = /^[A-Za-z][A-Za-z0-9_.]{0,79}$/;

interface RpcAnswer {
  result?: unknown;
  error?: { name?: unknown; errors?: { name?: unknown }[] };
}

function parse(body: string): RpcAnswer | null {
  try {
    const value: unknown = JSON.parse(body);
    return value !== null && typeof value === 'object' ? (value as RpcAnswer) : null;
  } catch {
    return null;
  }
}

export function geotabAdapter(baseUrl: string): ProviderAdapter {
  return {
    provider: 'geotab',
    async check(settings, timeoutMs = PROVIDER_TIMEOUT_MS) {
      const missing = missingSetting('geotab', settings);
      if (missing) return missing;
      const answer = await callProvider(
        baseUrl,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({
            method: 'Authenticate',
            params: { database: settings.database!.trim(), userName: settings.user_name!.trim(), password: settings.password },
          }),
        },
        timeoutMs,
      );
      if (!answer.reached) return answer.check;
      const failed = byStatus(answer.status);
      if (failed) return failed;
      const rpc = parse(answer.body);
      if (rpc?.error) {
        const names = [rpc.error.name, ...(rpc.error.errors ?? []).map((e) => e?.name)];
        const named = names.filter((name): name is string => typeof name === 'string' && ERROR_NAME.test(name));
        if (named.some((name) => REFUSALS.has(name))) return refused();
        return { ok: false, reason: INTEGRATION_TEST_REASONS.providerError(named.at(-1) ?? 'JSON-RPC error') };
      }
      if (rpc && rpc.result !== undefined && rpc.result !== null) return OK;
      return { ok: false, reason: INTEGRATION_TEST_REASONS.unreadable };
    },
  };
}
