/**
 * Fleet telematics integrations (part 2 §1 "fleet telematics integrations (two providers)", §2
 * "API keys and integrations", §6 integration configuration permissions, §9 "Integration
 * providers: two fleet telematics providers"; the paths are designed, §7 "Paths not shown"): the
 * wire of a configuration, each provider's settings and their form, and the answer of a
 * connection test. The server and the accounts Integrations tab share them.
 */
import { z } from 'zod';
import { INTEGRATION_PROVIDERS, type IntegrationProvider } from './constants';
import { requiredString } from './validation/fields';
import { parseTime } from './time';

/** The longest setting value the server keeps. */
export const INTEGRATION_SETTING_MAX = 500;
export const INTEGRATION_SETTING_MAX_TEXT = `${INTEGRATION_SETTING_MAX} Max Characters`;

/** GET/POST /organization/integrations: one configuration; credential settings are answered masked. */
export const integrationWireSchema = z.object({
  id: z.string(),
  organization_id: z.string(),
  provider: z.enum(INTEGRATION_PROVIDERS),
  settings: z.record(z.string(), z.string()),
  created_at: z.string(),
});
export type IntegrationWire = z.infer<typeof integrationWireSchema>;

export interface Integration {
  id: string;
  orgId: string;
  provider: IntegrationProvider;
  /** As the server answers them: credentials masked ('••••1234'). */
  settings: Readonly<Record<string, string>>;
  createdAt: number;
}

export function fromIntegrationWire(wire: IntegrationWire): Integration {
  return {
    id: wire.id,
    orgId: wire.organization_id,
    provider: wire.provider,
    settings: wire.settings,
    createdAt: parseTime(wire.created_at) ?? 0,
  };
}

// ── the providers' settings (chosen: what each provider's API needs to sign in) ──
export interface IntegrationField {
  /** The setting's name on the wire. A name containing token, secret, password or key is a credential the server masks. */
  readonly key: string;
  readonly label: string;
  /** A credential: typed into a password input, never shown back in full. */
  readonly secret: boolean;
}

export const INTEGRATION_FIELDS = {
  samsara: [{ key: 'api_token', label: 'API Token', secret: true }],
  geotab: [
    { key: 'server', label: 'Server', secret: false },
    { key: 'database', label: 'Database', secret: false },
    { key: 'user_name', label: 'User Name', secret: false },
    { key: 'password', label: 'Password', secret: true },
  ],
} as const satisfies Record<IntegrationProvider, readonly IntegrationField[]>;

export const INTEGRATION_PROVIDER_NAMES: Readonly<Record<IntegrationProvider, string>> = {
  samsara: 'Samsara',
  geotab: 'Geotab',
};

/** A host name (my.geotab.com), no scheme, path or port. */
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
export const HOST_NAME_TEXT = 'Must be a server name like my.geotab.com';

const setting = () => requiredString({ max: INTEGRATION_SETTING_MAX, message: INTEGRATION_SETTING_MAX_TEXT });

/** Every setting of a provider is required (trimmed, 'Required'), at most 500 characters; Geotab's server is a host name. */
export const INTEGRATION_FORM_SCHEMAS = {
  samsara: z.object({ api_token: setting() }),
  geotab: z.object({
    server: setting().regex(HOST_NAME, { error: HOST_NAME_TEXT }),
    database: setting(),
    user_name: setting(),
    password: setting(),
  }),
} as const satisfies Record<IntegrationProvider, z.ZodType>;

export type IntegrationSettingsForm = Record<string, string>;

/** POST /organization/integrations. */
export interface IntegrationPayload {
  provider: IntegrationProvider;
  settings: Record<string, string>;
  organization_id: string;
}

/** The form's settings, trimmed, each provider's fields only. */
export function toIntegrationPayload(
  provider: IntegrationProvider,
  form: IntegrationSettingsForm,
  organizationId: string,
): IntegrationPayload {
  const settings: Record<string, string> = {};
  for (const field of INTEGRATION_FIELDS[provider]) settings[field.key] = (form[field.key] ?? '').trim();
  return { provider, settings, organization_id: organizationId };
}

// ── the connection test (POST /organization/integrations/{id}/test) ──
/** Why a test failed, in plain words (the server answers them; a refusal is not a server error). */
export const INTEGRATION_TEST_REASONS = {
  refused: 'The provider refused the credentials',
  unreachable: 'The provider could not be reached',
  /** `HTTP 503`, or the provider's own error name. */
  providerError: (detail: string) => `The provider answered with an error (${detail})`,
  unreadable: 'The provider answered something that is not its API',
  incomplete: (label: string) => `The configuration has no ${label}`,
} as const;

export const integrationTestWireSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), checked_at: z.string() }),
  z.object({ ok: z.literal(false), reason: z.string() }),
]);
export type IntegrationTestWire = z.infer<typeof integrationTestWireSchema>;
