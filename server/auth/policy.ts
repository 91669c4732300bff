import { DAY_MS } from '../../src/domain/constants';

/**
 * Account policy values the spec does not give (docs/decisions/spec.md "Values the spec does not give"):
 * an account unused this long answers 401 `expired` ('Your account has expired due to inactivity.').
 */
export const ACCOUNT_INACTIVITY_EXPIRY_DAYS = 180;
/** A reset link works for a day. */
export const RESET_TOKEN_TTL_MS = DAY_MS;
