/**
 * API keys (part 2 §2 Account administration, §3 API key, §8 'Your User has reached the API Key limit').
 * The paths are not given by the spec (§7 "Paths not shown"); the shapes are §3's.
 */
import { z } from 'zod';
import { API_KEY_LIMIT } from './constants';
import { parseTime } from './time';

export const apiKeyWireSchema = z.object({
  id: z.string(),
  description: z.string().nullish(),
  token: z.string(),
  created_date: z.string(),
  /** Who made it (designed): the organization's administrators list every key of the organization. */
  owner: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullish(),
});
export type ApiKeyWire = z.infer<typeof apiKeyWireSchema>;

export interface ApiKey {
  id: string;
  description: string;
  token: string;
  createdDate: number;
  owner: { id: string; name: string; email: string } | null;
}

export function fromApiKeyWire(wire: ApiKeyWire): ApiKey {
  return {
    id: wire.id,
    description: wire.description ?? '',
    token: wire.token,
    createdDate: parseTime(wire.created_date) ?? 0,
    owner: wire.owner ?? null,
  };
}

/** Create body. */
export interface ApiKeyPayload {
  description: string;
}

export function toApiKeyPayload(description: string): ApiKeyPayload {
  return { description: description.trim() };
}

/** A user may hold up to API_KEY_LIMIT keys (docs/decisions/spec.md "Values the spec does not give": 5, chosen). */
export function canCreateApiKey(keys: readonly unknown[]): boolean {
  return keys.length < API_KEY_LIMIT;
}

/** Newest first. */
export function sortApiKeys(keys: readonly ApiKey[]): ApiKey[] {
  return [...keys].sort((a, b) => b.createdDate - a.createdDate);
}
