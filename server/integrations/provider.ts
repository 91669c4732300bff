/**
 * A fleet telematics provider's connection test (part 2 §9 "Integration providers: two fleet
 * telematics providers"; designed: POST /organization/integrations/{id}/test). One adapter per
 * provider signs in to the provider's API with a configuration's stored settings and says whether
 * the provider took them. Only the base URL from the environment is ever called: no setting
 * chooses where the server connects.
 */
import type { IntegrationProvider } from '../../src/domain/constants';
import { INTEGRATION_FIELDS, INTEGRATION_TEST_REASONS } from '../../src/domain/integration';

/** A provider that has not answered in this time counts as unreachable. */
export const PROVIDER_TIMEOUT_MS = 10_000;

export type ProviderCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

export interface ProviderAdapter {
  readonly provider: IntegrationProvider;
  /** Signs in with the settings; never throws (a failure is an answer with its reason). */
  check(settings: Readonly<Record<string, string>>, timeoutMs?: number): Promise<ProviderCheck>;
}

export const OK: ProviderCheck = { ok: true };
export const refused = (): ProviderCheck => ({ ok: false, reason: INTEGRATION_TEST_REASONS.refused });

/** The first of the provider's fields the settings lack (empty counts as missing), as a failed check. */
export function missingSetting(provider: IntegrationProvider, settings: Readonly<Record<string, string>>): ProviderCheck | null {
  const missing = INTEGRATION_FIELDS[provider].find((field) => !settings[field.key]?.trim());
  return missing ? { ok: false, reason: INTEGRATION_TEST_REASONS.incomplete(missing.label) } : null;
}

export type ProviderAnswer =
  { readonly reached: true; readonly status: number; readonly body: string } | { readonly reached: false; readonly check: ProviderCheck };

/** The provider's answer (status and body), or the unreachable failure: refused connection, DNS, TLS, timeout. */
export async function callProvider(url: string, init: RequestInit, timeoutMs: number): Promise<ProviderAnswer> {
  try {
    const response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    return { reached: true, status: response.status, body: await response.text() };
  } catch {
    return { reached: false, check: { ok: false, reason: INTEGRATION_TEST_REASONS.unreachable } };
  }
}

/** A refusal by HTTP status (401, 403), or another failure status with its number. */
export function byStatus(status: number): ProviderCheck | null {
  if (status === 401 || status === 403) return refused();
  if (status < 200 || status > 299) return { ok: false, reason: INTEGRATION_TEST_REASONS.providerError(`HTTP ${status}`) };
  return null;
}
