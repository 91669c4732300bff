import { z } from 'zod';
import { INTEGRATION_PROVIDERS } from '../../../src/domain/constants';
import { INTEGRATION_SETTING_MAX, INTEGRATION_SETTING_MAX_TEXT } from '../../../src/domain/integration';
import { MESSAGES } from '../../../src/domain/validation/messages';
import { unprocessable } from '../../core/errors';

/** The integration calls' bodies, rules and texts (part 2 §1 "integrations (two providers)", §9). */

const SETTINGS_MAX_ENTRIES = 20;
const SETTING_KEY = /^[A-Za-z][A-Za-z0-9_]{0,49}$/;
/** Settings whose name says they are a credential are never answered in full. */
const SECRET_SETTING = /token|secret|password|key/i;
const SECRET_SHOWN = 4;

export const createBody = z.object({
  provider: z.enum(INTEGRATION_PROVIDERS, { error: `must be one of ${INTEGRATION_PROVIDERS.join(', ')}` }),
  settings: z
    .record(
      z.string().regex(SETTING_KEY, 'setting names are letters, digits and _'),
      z.string().trim().max(INTEGRATION_SETTING_MAX, INTEGRATION_SETTING_MAX_TEXT),
    )
    .refine((value) => Object.keys(value).length <= SETTINGS_MAX_ENTRIES, `at most ${SETTINGS_MAX_ENTRIES} settings`)
    .default({}),
  organization_id: z.string().max(100).nullish(),
});

/** PUT /organization/integrations/{id} (designed): the provider's settings replaced whole (a new token, a fixed database). */
export const updateBody = createBody.pick({ settings: true }).required();

/** The settings as answered: a credential's value masked (its last characters shown when it is long enough). */
export function masked(settings: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(settings).map(([key, value]) =>
      SECRET_SETTING.test(key) ? [key, `••••${value.length > SECRET_SHOWN * 2 ? value.slice(-SECRET_SHOWN) : ''}`] : [key, value],
    ),
  );
}

/** A provider the organization already has a configuration of. */
export const providerAlreadyUsed = () =>
  unprocessable(`provider: ${MESSAGES.providerAlreadyUsed}`, 'provider_used', {
    fields: { provider: MESSAGES.providerAlreadyUsed },
  });
