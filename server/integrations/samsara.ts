/**
 * Samsara (part 2 §9 fleet telematics provider): the API token is a bearer token; listing one
 * vehicle (`GET {SAMSARA_API_URL}/fleet/vehicles?limit=1`) succeeds with a good token and answers
 * 401 with a bad one.
 */
import { byStatus, callProvider, missingSetting, OK, PROVIDER_TIMEOUT_MS, type ProviderAdapter } from './provider';

export function samsaraAdapter(baseUrl: string): ProviderAdapter {
  return {
    provider: 'samsara',
    async check(settings, timeoutMs = PROVIDER_TIMEOUT_MS) {
      const missing = missingSetting('samsara', settings);
      if (missing) return missing;
      const answer = await callProvider(
        `${baseUrl}/fleet/vehicles?limit=1`,
        { method: 'GET', headers: { authorization: `Bearer ${settings.api_token!.trim()}`, accept: 'application/json' } },
        timeoutMs,
      );
      if (!answer.reached) return answer.check;
      return byStatus(answer.status) ?? OK;
    },
  };
}
