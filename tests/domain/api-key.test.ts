import { describe, expect, it } from 'vitest';
import { apiKeyWireSchema, canCreateApiKey, fromApiKeyWire, sortApiKeys, toApiKeyPayload } from '../../src/domain/api-key';
import { API_KEY_LIMIT } from '../../src/domain/constants';

describe('part2 §3 API key', () => {
  it('maps the wire', () => {
    const key = fromApiKeyWire(apiKeyWireSchema.parse({ id: 'k1', description: null, token: 'tok', created_date: '2026-11-01T00:00:00Z' }));
    expect(key).toEqual({ id: 'k1', description: '', token: 'tok', createdDate: Date.parse('2026-11-01T00:00:00Z'), owner: null });
    const owner = { id: 'u1', name: 'Sam Ortiz', email: 'sam@example.com' };
    expect(fromApiKeyWire(apiKeyWireSchema.parse({ id: 'k2', token: 'tok', created_date: '2026-11-01T00:00:00Z', owner })).owner).toEqual(
      owner,
    );
  });

  it('rejects a key without a token', () => {
    expect(apiKeyWireSchema.safeParse({ id: 'k1', created_date: '2026-11-01T00:00:00Z' }).success).toBe(false);
  });

  it('payload trims the description', () => {
    expect(toApiKeyPayload('  ci key ')).toEqual({ description: 'ci key' });
  });

  it.each([
    [0, true],
    [API_KEY_LIMIT - 1, true],
    [API_KEY_LIMIT, false],
    [API_KEY_LIMIT + 1, false],
  ])("part2 §8 'Your User has reached the API Key limit': %s keys → may create %s", (count, expected) => {
    expect(canCreateApiKey(Array.from({ length: count }))).toBe(expected);
  });

  it('sorts newest first', () => {
    const keys = [1, 3, 2].map((n) => ({ id: `k${n}`, description: '', token: '', createdDate: n, owner: null }));
    expect(sortApiKeys(keys).map((k) => k.id)).toEqual(['k3', 'k2', 'k1']);
  });
});
