import { z } from 'zod';
import { API_KEY_DESCRIPTION_MAX, API_KEY_LIMIT } from '../../../src/domain/constants';
import { CLIENT_ERROR_CODES } from '../../../src/domain/errors';
import { API_KEY_PREFIX } from '../../auth/api-key-auth';
import { unprocessable } from '../../core/errors';

/** The API key calls' body, rules and texts (part 2 §3 API key, §8 'Your User has reached the API Key limit'). */

/** Keys read `lb_` + 43 base64url characters; the prefix shown is the first 11 characters. */
export const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;
/** part 2 §8 'API keys, limit reached': the message and the code the catalogue reads. */
export const API_KEY_LIMIT_MESSAGE = 'Your User has reached the API Key limit';

export const apiKeyLimitReached = () => unprocessable(API_KEY_LIMIT_MESSAGE, CLIENT_ERROR_CODES.apiKeyLimit, { limit: API_KEY_LIMIT });

export const createBody = z.object({
  description: z
    .string({ error: 'Required' })
    .trim()
    .min(1, 'Required')
    .max(API_KEY_DESCRIPTION_MAX, `${API_KEY_DESCRIPTION_MAX} Max Characters`),
});
