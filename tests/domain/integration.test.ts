import { describe, expect, it } from 'vitest';
import { errorText } from '../../src/domain/errors';
import {
  fromIntegrationWire,
  INTEGRATION_FIELDS,
  INTEGRATION_FORM_SCHEMAS,
  integrationTestWireSchema,
  integrationWireSchema,
  toIntegrationPayload,
} from '../../src/domain/integration';

/** The first message per field of a refused form. */
function messages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) out[String(issue.path[0])] ??= issue.message;
  return out;
}

describe('part2 §9 integrations: the two providers’ settings', () => {
  it('Samsara needs its API token; Geotab its server, database, user name and password; the credentials are secret', () => {
    expect(INTEGRATION_FIELDS.samsara.map((f) => [f.key, f.secret])).toEqual([['api_token', true]]);
    expect(INTEGRATION_FIELDS.geotab.map((f) => [f.key, f.secret])).toEqual([
      ['server', false],
      ['database', false],
      ['user_name', false],
      ['password', true],
    ]);
  });

  it("every field 'Required' (blank after trimming), at most 500 characters; Geotab's server is a host name", () => {
    expect(messages(INTEGRATION_FORM_SCHEMAS.samsara.safeParse({ api_token: '   ' }))).toEqual({ api_token: 'Required' });
    expect(messages(INTEGRATION_FORM_SCHEMAS.samsara.safeParse({ api_token: 'x'.repeat(501) }))).toEqual({
      api_token: '500 Max Characters',
    });
    expect(INTEGRATION_FORM_SCHEMAS.samsara.safeParse({ api_token: 'x'.repeat(500) }).success).toBe(true);
    expect(messages(INTEGRATION_FORM_SCHEMAS.geotab.safeParse({ server: '', database: '', user_name: '', password: '' }))).toEqual({
      server: 'Required',
      database: 'Required',
      user_name: 'Required',
      password: 'Required',
    });
    const good = { server: 'my.geotab.com', database: 'fleet', user_name: 'ops', password: 'p' };
    expect(INTEGRATION_FORM_SCHEMAS.geotab.safeParse(good).success).toBe(true);
    expect(INTEGRATION_FORM_SCHEMAS.geotab.safeParse({ ...good, server: ' my3.geotab.com ' }).success).toBe(true);
    for (const server of ['https://my.geotab.com', 'my.geotab.com/apiv1', 'my.geotab.com:443', 'my geotab', '-bad.example', 'a..b']) {
      expect(messages(INTEGRATION_FORM_SCHEMAS.geotab.safeParse({ ...good, server })), server).toEqual({
        server: 'Must be a server name like my.geotab.com',
      });
    }
  });

  it("the payload: the provider's fields only, trimmed, with the organization", () => {
    expect(toIntegrationPayload('samsara', { api_token: '  tok  ', other: 'x' }, 'org-1')).toEqual({
      provider: 'samsara',
      settings: { api_token: 'tok' },
      organization_id: 'org-1',
    });
  });

  it('maps the wire; the test answer is ok with checked_at, or not ok with a reason', () => {
    const wire = integrationWireSchema.parse({
      id: 'i-1',
      organization_id: 'org-1',
      provider: 'geotab',
      settings: { password: '••••9876' },
      created_at: '2026-11-20T15:04:00.000Z',
    });
    expect(fromIntegrationWire(wire)).toEqual({
      id: 'i-1',
      orgId: 'org-1',
      provider: 'geotab',
      settings: { password: '••••9876' },
      createdAt: Date.UTC(2026, 10, 20, 15, 4),
    });
    expect(integrationWireSchema.safeParse({ ...wire, provider: 'teletrac' }).success).toBe(false);
    expect(integrationTestWireSchema.parse({ ok: true, checked_at: '2026-11-22T12:00:00.000Z' })).toEqual({
      ok: true,
      checked_at: '2026-11-22T12:00:00.000Z',
    });
    expect(integrationTestWireSchema.safeParse({ ok: false }).success).toBe(false);
  });

  it("the catalogue: 404 'Integration not found', a 422 as the server words it, else the part 2 'All' rows", () => {
    expect(errorText('integrations', { status: 404 }).text).toBe('Integration not found');
    expect(errorText('integrations', { status: 422, message: 'provider: Provider already used' }).text).toBe(
      'provider: Provider already used',
    );
    expect(errorText('integrations', { status: 0 }).text).toBe('Connection failed');
    expect(errorText('integrations', { status: 500 }).text).toBe('Unknown failure');
  });
});
