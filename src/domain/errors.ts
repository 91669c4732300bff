/**
 * The error catalogue of part 1 §8 and part 2 §8 as one lookup: a context (which call failed)
 * and the failure (HTTP status, the server's message, an error code) give the user's text.
 * Fixed outcome texts (R2R, test mode, LED, geolocation, pages) are in `labels.ts`.
 *
 * Matching "containing 'x'" is a case-sensitive substring test, as the spec writes the words
 * ('Timed', 'Email'). Status 0 means no answer (connection failed). Part 1 contexts write
 * 'Connection failed.' / 'Unknown failure.' with a period, part 2's with none: each context keeps
 * its own part's words. In a part 2 context the "All" row (0 → 'Connection failed') comes before
 * the context's own catch-all ("other"), except where the context's only row is an unconditional
 * failure (closure toggle, exports).
 */
import { PASSWORD_HISTORY, PRODUCT_NAME, SUPPORT_EMAIL } from './constants';
import { EXPORTS_RUNNING_PER_ORGANIZATION, EXPORTS_RUNNING_PER_USER } from './export';
import { SIGN_IN_TEXT, TOOLTIP } from './labels';

export const ERROR_CONTEXTS = [
  // part 1 §8
  'signIn',
  'tokenRefresh',
  'tokenVerify',
  'forgot',
  'unlock',
  'reset',
  'profile',
  'organization',
  'general',
  'locationUpdate',
  'assetSave',
  'assetAction',
  // part 2 §8
  'lists',
  'closureSave',
  'closureDelete',
  'closureToggle',
  'areaSave',
  'areaDelete',
  'zonesFetch',
  'trips',
  'routeDrawing',
  'reports',
  'reportFile',
  'exports',
  'exportDelete',
  'userCalls',
  'organizationUpdate',
  'organizationDelete',
  'addUser',
  'updateUser',
  'apiKeys',
  // ── accounts (our designed calls: PUT /profile, PUT /password) ──
  'profileSave',
  'changePassword',
  // ── device configuration (designed calls; texts chosen) ──
  'deviceConfigs',
  // ── fleet telematics integrations (designed calls; texts chosen) ──
  'integrations',
  // ── WZDx feed subscriptions (beyond the spec; texts chosen) ──
  'wzdxFeeds',
  // ── incident notes and acknowledgement (beyond the spec; texts chosen) ──
  'locationNotes',
] as const;
export type ErrorContext = (typeof ERROR_CONTEXTS)[number];

/** What went wrong. `status` 0 = no answer; omitted = not an HTTP failure (e.g. the directions service). */
export interface Failure {
  readonly status?: number;
  /** The server's error text (or error_description), or the service's message. */
  readonly message?: string | null;
  /** The server's error code, or one of CLIENT_ERROR_CODES for conditions the client detects. */
  readonly code?: string | null;
}

/**
 * The server (or a proxy before it) is busy or briefly unreachable and said to come back: 502, 503
 * (our load shedding answers 503 `overloaded` with Retry-After), 504. Like no answer at all, this
 * says nothing about the session or the request: ask again later.
 */
export function isServerBusy(failure: Failure): boolean {
  return failure.status === 502 || failure.status === 503 || failure.status === 504;
}

/** part 1 §8: no answer (status 0) or a busy server, not a failure such as the profile failure: ask again later. */
export function isNoAnswerOrBusy(failure: Failure): boolean {
  return failure.status === 0 || isServerBusy(failure);
}

/** The user's text, with the extra line the spec shows under it where it shows one. */
export interface UserError {
  readonly text: string;
  readonly detail?: string;
}

/** part 1 §8: the sign-in error codes the server sends with 401 (and user_suspended with 400). */
export const SIGN_IN_ERROR_CODES = {
  expired: 'expired',
  notAuthorizedMethod: 'not_authorized_method',
  userSuspended: 'user_suspended',
  /** The spec's wire code; it is never shown, so it keeps its name. */
  notEnabled: 'not_safetycloud_enabled',
  lockedOut: 'locked_out',
} as const;

/** Conditions the spec names that are not an HTTP status: the caller (or server) sets `code`. */
export const CLIENT_ERROR_CODES = {
  /** part 1 §8 profile: the profile's organization differs from the token's. */
  organizationMismatch: 'organization_mismatch',
  /** part 2 §8 report file: the link answer has no file. */
  fileMissing: 'file_missing',
  /** part 2 §8 delete export: the user did not create the export. */
  notCreator: 'not_creator',
  /** Our server: a user may not delete their own user (the message is shown as sent). */
  cannotDeleteSelf: 'cannot_delete_self',
  /** Our server: DELETE /organization/{id} of one's own organization, or of one that still owns assets (its words shown). */
  cannotDeleteOwnOrganization: 'cannot_delete_own',
  organizationHasAssets: 'organization_has_assets',
  /** part 2 §8 API keys: the user has API_KEY_LIMIT keys. */
  apiKeyLimit: 'api_key_limit',
  /** Our server: too many exports running for the user or the organization (EXPORT_LIMIT_TEXT). */
  exportLimit: 'export_limit',
} as const;

/** The records a form edits from a copy it loaded (lost updates: the server's 412). */
export type EditedResource = 'closure' | 'area' | 'asset' | 'user' | 'organization';

/**
 * A save made from a copy someone else changed since (412 precondition_failed): the server's words
 * and the form's, the same in every context that saves one of the records.
 */
export function staleEditText(resource: EditedResource): string {
  return `This ${resource} was changed by someone else. Reload to see their changes.`;
}

/** The 412 of a save (a version that is no longer the record's), else null. */
function staleEdit(failure: Failure, resource: EditedResource): UserError | null {
  return failure.status === 412 ? text(staleEditText(resource)) : null;
}

/**
 * Our server's words when an export is refused because too many are running (the spec's catalogue
 * has no row for it): shown as sent, under the wizard's form.
 */
export const EXPORT_LIMIT_TEXT = {
  user: `You already have ${EXPORTS_RUNNING_PER_USER} exports In-Progress. Please wait for one to finish before requesting another.`,
  organization: `Your organization already has ${EXPORTS_RUNNING_PER_ORGANIZATION} exports In-Progress. Please wait for one to finish before requesting another.`,
} as const;

// ── the words ────────────────────────────────────────────────────────────────
/** part 1's general and sign-in rows, and part 2's add-user row. */
const DOTTED = {
  connectionFailed: 'Connection failed.',
  unknownFailure: 'Unknown failure.',
} as const;

/** part 1's organization and asset rows, and part 2's "All" rows. */
const PLAIN = {
  connectionFailed: 'Connection failed',
  unknownFailure: 'Unknown failure',
  organizationNotFound: 'Organization not found',
} as const;

export const SIGN_IN_ERROR_TEXT = {
  suspended: 'User is suspended.',
  incorrect: 'Email and/or password incorrect.',
  notAuthorized: `Your user is not authorized to access ${PRODUCT_NAME}.`,
  expired: 'Your account has expired due to inactivity.',
  /** part 1 §8: "a line asking to contact the provider to restore the account" — wording chosen. */
  expiredDetail: 'Please contact your provider to restore your account.',
  managedAccess: 'Your organization is managing user access to the dashboard.',
  managedAccessDetail: 'Please contact your administrator for access.',
} as const;

const text = (value: string, detail?: string): UserError => (detail === undefined ? { text: value } : { text: value, detail });

function has(failure: Failure, word: string): boolean {
  return failure.message?.includes(word) ?? false;
}

/** A part 1 context with the general rows only. */
function part1General(failure: Failure): UserError {
  return text(failure.status === 0 ? DOTTED.connectionFailed : DOTTED.unknownFailure);
}

/** part 2 "All" rows. */
function part2All(failure: Failure): UserError {
  return text(failure.status === 0 ? PLAIN.connectionFailed : PLAIN.unknownFailure);
}

function signIn(failure: Failure): UserError {
  const { status, code } = failure;
  const mentions = (word: string): boolean => has(failure, word) || (code?.includes(word) ?? false);
  if (status === 0) return text(DOTTED.connectionFailed);
  if (status === 400) {
    return text(mentions(SIGN_IN_ERROR_CODES.userSuspended) ? SIGN_IN_ERROR_TEXT.suspended : SIGN_IN_ERROR_TEXT.incorrect);
  }
  if (status === 404) return text(SIGN_IN_ERROR_TEXT.incorrect);
  if (status === 403) return text(SIGN_IN_ERROR_TEXT.notAuthorized);
  if (status === 401) {
    switch (code) {
      case SIGN_IN_ERROR_CODES.expired:
        return text(SIGN_IN_ERROR_TEXT.expired, SIGN_IN_ERROR_TEXT.expiredDetail);
      case SIGN_IN_ERROR_CODES.notAuthorizedMethod:
        return text(SIGN_IN_ERROR_TEXT.managedAccess, SIGN_IN_ERROR_TEXT.managedAccessDetail);
      case SIGN_IN_ERROR_CODES.userSuspended:
        return text(SIGN_IN_ERROR_TEXT.suspended);
      case SIGN_IN_ERROR_CODES.notEnabled:
        return text(SIGN_IN_ERROR_TEXT.notAuthorized);
      case SIGN_IN_ERROR_CODES.lockedOut:
        // "locked_out gives the server's error description"
        return text(failure.message || DOTTED.unknownFailure);
      default:
        return text(DOTTED.unknownFailure);
    }
  }
  return text(DOTTED.unknownFailure);
}

function token(failure: Failure): UserError {
  if (failure.status === 422) return text('Access token is expired or does not exist.');
  return part1General(failure);
}

function forgotOrUnlock(failure: Failure): UserError {
  if (failure.status === 404) return text("There's no user with such email.");
  return part1General(failure);
}

/**
 * part 1 §8 reset, 422 "when the password is the same or used before" / "for an expired token":
 * read from the server's message, case-insensitively, by the words 'same' or 'used' and 'expired'.
 */
function reset(failure: Failure): UserError {
  const { status } = failure;
  const lower = failure.message?.toLowerCase() ?? '';
  const suspended = failure.code === SIGN_IN_ERROR_CODES.userSuspended || lower.includes(SIGN_IN_ERROR_CODES.userSuspended);
  if (status === 401 && suspended) return text(SIGN_IN_ERROR_TEXT.suspended, 'Please contact support');
  if (status === 404) return text('Reset token is expired or does not exist.');
  if (status === 422) {
    if (lower.includes('same') || lower.includes('used')) return text(`Cannot be same as last ${PASSWORD_HISTORY} passwords.`);
    if (lower.includes('expired')) return text('Reset token is expired or does not exist.');
    return text('Password does not fulfill password requirements.');
  }
  return part1General(failure);
}

function profile(failure: Failure): UserError {
  if (failure.code === CLIENT_ERROR_CODES.organizationMismatch) {
    return text('Invalid Credentials', 'Organization was changed, please log back in.');
  }
  return text('Error', 'Please log back in.');
}

function organization(failure: Failure): UserError {
  if (failure.status === 0) return text(PLAIN.connectionFailed);
  if (failure.status === 404) return text(PLAIN.organizationNotFound);
  return text(PLAIN.unknownFailure);
}

function locationUpdate(failure: Failure): UserError {
  if (failure.status === 0) return text(DOTTED.connectionFailed);
  // Our server answers 404 for a location the caller may not see (docs/decisions/design.md): the 'found' row.
  if (failure.status === 404) return text('Location not found');
  if (failure.status === 422) {
    if (has(failure, 'active')) return text('Location no longer active');
    if (has(failure, 'access')) return text('User does not have access to Location');
    if (has(failure, 'found')) return text('Location not found');
  }
  return text('Unable to update Location');
}

function assetSave(failure: Failure): UserError {
  const stale = staleEdit(failure, 'asset');
  if (stale) return stale;
  if (failure.status === 0) return text(PLAIN.connectionFailed);
  // Our server answers 404 for an asset the caller may not see (docs/decisions/design.md): the 'found' row.
  if (failure.status === 404) return text('Asset not found');
  if (failure.status === 422) {
    if (has(failure, 'found')) return text('Asset not found');
    if (has(failure, 'nickname')) return text('Asset nickname cannot be updated');
    if (failure.message) return text(failure.message); // "other 422 messages are shown as received"
  }
  return text(PLAIN.unknownFailure);
}

function assetAction(failure: Failure): UserError {
  if (failure.status === 0) return text(PLAIN.connectionFailed);
  if (failure.status === 404) return text('Asset not found');
  if (failure.status === 422) return text(has(failure, 'Timed') ? 'Request timed out' : 'Something went wrong');
  return text(PLAIN.unknownFailure);
}

/** part 2 §8 Asset save errors, for the asset a closure is associated with ('found', 'nickname'). */
function closureAsset(failure: Failure): UserError | null {
  if (has(failure, 'found')) return text('Asset not found');
  if (has(failure, 'nickname')) return text('Asset nickname cannot be updated');
  return null;
}

function closureSave(failure: Failure): UserError {
  const stale = staleEdit(failure, 'closure');
  if (stale) return stale;
  if (failure.status === 0) return text(PLAIN.connectionFailed);
  if (failure.status === 404) return text('Closure not found');
  if (failure.status === 422) {
    if (has(failure, 'violates unique')) return text('ID is already in use. Please select a new ID');
    if (has(failure, 'not managed')) return text('Closure not managed by Dashboard');
    const asset = closureAsset(failure);
    if (asset) return asset;
  }
  return text('Unable to save Closure');
}

/** chosen: part 2 §8 has no closure delete row; the words follow 'Unable to delete Area'. */
export const CLOSURE_DELETE_FAILED_TEXT = 'Unable to delete Closure';

/** DELETE /organization/closure/{id}: a 404 counts as deleted (part 2 §7), so it never shows. */
function closureDelete(failure: Failure): UserError {
  if (failure.status === 0) return text(PLAIN.connectionFailed);
  if (failure.status === 422 && has(failure, 'not managed')) return text('Closure not managed by Dashboard');
  return text(CLOSURE_DELETE_FAILED_TEXT);
}

function areaSave(failure: Failure): UserError {
  const stale = staleEdit(failure, 'area');
  if (stale) return stale;
  if (failure.status === 0) return text(PLAIN.connectionFailed);
  if (failure.status === 422) {
    if (has(failure, 'invalid')) return text('Exclusion shape is invalid');
    // The spec's words write POLYGON_MAX_SQ_MILES as '.5'.
    if (has(failure, 'too large')) return text('Polygon area is too large, please keep area under .5 square miles');
  }
  return text('Unable to save Area');
}

function areaDelete(failure: Failure): UserError {
  // The delete flow treats 404 as already deleted (part 2 §7); the row stays for callers that show it.
  if (failure.status === 404) return text('Area not found');
  if (failure.status === 422) return text('Unable to delete Area');
  return part2All(failure);
}

function trips(failure: Failure): UserError {
  if (failure.status === 404) return text('Asset not found');
  return part2All(failure);
}

function routeDrawing(failure: Failure): UserError {
  return text(failure.message || 'Something went wrong');
}

function reports(failure: Failure): UserError {
  if (failure.status === 0) return text(PLAIN.connectionFailed);
  return text(failure.message || PLAIN.unknownFailure);
}

function reportFile(failure: Failure): UserError {
  if (failure.code === CLIENT_ERROR_CODES.fileMissing || failure.status === 404) return text('File not found');
  return part2All(failure);
}

function exportDelete(failure: Failure): UserError {
  if (failure.code === CLIENT_ERROR_CODES.notCreator) return text('Only the export creator can delete');
  return part2All(failure);
}

/** DELETE /organization/{id} (designed): the server's own words for what it refuses, else part 2's texts. */
function organizationDelete(failure: Failure): UserError {
  const refusal = [CLIENT_ERROR_CODES.cannotDeleteOwnOrganization, CLIENT_ERROR_CODES.organizationHasAssets] as readonly string[];
  if (failure.code && refusal.includes(failure.code) && failure.message) return text(failure.message);
  if (failure.status === 404) return text(PLAIN.organizationNotFound);
  return part2All(failure);
}

function userCalls(failure: Failure): UserError {
  // Our server refuses deleting oneself with its own words (docs/decisions/design.md).
  if (failure.code === CLIENT_ERROR_CODES.cannotDeleteSelf && failure.message) return text(failure.message);
  if (failure.status === 422) return text('User not found');
  return part2All(failure);
}

function organizationUpdate(failure: Failure): UserError {
  const stale = staleEdit(failure, 'organization');
  if (stale) return stale;
  if (failure.status === 422) return text(PLAIN.organizationNotFound);
  return part2All(failure);
}

function addUser(failure: Failure): UserError {
  if (failure.status === 0) return text(PLAIN.connectionFailed);
  if (failure.status === 422 && has(failure, 'Email')) return text('Email is already in use. Please try another one.');
  return text(DOTTED.unknownFailure); // part 2 §8 writes this row with a period
}

function updateUser(failure: Failure): UserError {
  const stale = staleEdit(failure, 'user');
  if (stale) return stale;
  if (failure.status === 0) return text(PLAIN.connectionFailed);
  if (has(failure, 'find')) return text('The selected user could not be found');
  return text('There was an error submitting the form');
}

function apiKeys(failure: Failure): UserError {
  if (failure.code === CLIENT_ERROR_CODES.apiKeyLimit) return text('Your User has reached the API Key limit');
  return part2All(failure);
}

// ── accounts: the signed-in user's own account (designed calls; texts chosen, docs/decisions/spec.md) ──
/** chosen: the profile save refused by the server's rules. */
export const PROFILE_SAVE_FAILED_TEXT = 'Unable to save profile';
export const WRONG_CURRENT_PASSWORD_TEXT = 'Current password is incorrect';

function profileSave(failure: Failure): UserError {
  if (failure.status === 422) return text(PROFILE_SAVE_FAILED_TEXT);
  return part2All(failure);
}

/** Change password: a wrong current password, else the reset rows (same/used → last 10; other 422 → requirements). */
function changePassword(failure: Failure): UserError {
  if (failure.status === 422 && failure.code === 'wrong_password') return text(WRONG_CURRENT_PASSWORD_TEXT);
  if (failure.status === 422) return reset(failure);
  return part2All(failure);
}

// ── device configuration (designed calls; texts chosen) ──
export const DEVICE_CONFIG_NOT_FOUND_TEXT = 'Device configuration not found';

/** A refused save shows the server's field message ('indicator_pin: Cannot be the same as Warning Light Pin'). */
function deviceConfigs(failure: Failure): UserError {
  if (failure.status === 404) return text(DEVICE_CONFIG_NOT_FOUND_TEXT);
  if (failure.status === 422 && failure.message) return text(failure.message);
  return part2All(failure);
}

// ── fleet telematics integrations (designed calls; texts chosen) ──
export const INTEGRATION_NOT_FOUND_TEXT = 'Integration not found';

/** A refused save shows the server's field message ('provider: Provider already used'). */
function integrations(failure: Failure): UserError {
  if (failure.status === 404) return text(INTEGRATION_NOT_FOUND_TEXT);
  if (failure.status === 422 && failure.message) return text(failure.message);
  return part2All(failure);
}

// ── WZDx feed subscriptions (beyond the spec; texts chosen) ──
export const WZDX_FEED_NOT_FOUND_TEXT = 'WZDx feed not found';

/** A refused save shows the server's field message ('poll_interval_s: Must be at least 60 seconds'). */
function wzdxFeeds(failure: Failure): UserError {
  if (failure.status === 404) return text(has(failure, 'Organization') ? PLAIN.organizationNotFound : WZDX_FEED_NOT_FOUND_TEXT);
  if (failure.status === 403) return text(TOOLTIP.notAuthorized);
  if (failure.status === 422 && failure.message) return text(failure.message);
  return part2All(failure);
}

// ── incident notes and acknowledgement (docs/decisions/spec.md "Incident notes and acknowledgement") ──
/** A refused note shows the server's text ('text: Must be 1000 or fewer characters'). */
function locationNotes(failure: Failure): UserError {
  if (failure.status === 0) return text(DOTTED.connectionFailed);
  if (failure.status === 404) return text('Location not found');
  if (failure.status === 403) return text(TOOLTIP.notAuthorized);
  if (failure.status === 422 && failure.message) return text(failure.message);
  return text(DOTTED.unknownFailure);
}

const CATALOGUE: Readonly<Record<ErrorContext, (failure: Failure) => UserError>> = {
  signIn,
  tokenRefresh: token,
  tokenVerify: token,
  forgot: forgotOrUnlock,
  unlock: forgotOrUnlock,
  reset,
  profile,
  organization,
  general: part1General,
  locationUpdate,
  assetSave,
  assetAction,
  lists: organization,
  closureSave,
  closureDelete,
  closureToggle: () => text('Unable to Activate/Deactivate'),
  areaSave,
  areaDelete,
  zonesFetch: organization,
  trips,
  routeDrawing,
  reports,
  reportFile,
  exports: () => text('The requested exports have failed and are no longer In-Progress'),
  exportDelete,
  userCalls,
  organizationUpdate,
  organizationDelete,
  addUser,
  updateUser,
  apiKeys,
  profileSave,
  changePassword,
  deviceConfigs,
  integrations,
  wzdxFeeds,
  locationNotes,
};

/** The catalogue: the user's text for a failure in a context. */
export function errorText(context: ErrorContext, failure: Failure): UserError {
  return CATALOGUE[context](failure);
}

// ── sign-in display (part 1 §8 "Display") ────────────────────────────────────
export interface SignInErrorDisplay {
  readonly text: string;
  readonly detail?: string;
  /** "a prompt to click 'Forgot password?' to reactivate": render before + link + after. */
  readonly prompt?: { readonly before: string; readonly link: string; readonly after: string };
  /** "a 'Please contact' line with the support e-mail link": render text + ' ' + mailto link. */
  readonly contact?: { readonly text: string; readonly email: string };
}

/**
 * part 1 §8 display rules, applied to a sign-in (or unlock) error: text containing 'inactivity'
 * shows the inactivity text with the 'Forgot password?' prompt; text containing 'suspended' or
 * 'authorized' adds the 'Please contact' line with SUPPORT_EMAIL; other errors show as they are.
 */
export function signInErrorDisplay(error: UserError): SignInErrorDisplay {
  const base = error.detail === undefined ? { text: error.text } : { text: error.text, detail: error.detail };
  if (error.text.includes('inactivity')) {
    return {
      ...base,
      text: SIGN_IN_ERROR_TEXT.expired,
      prompt: { before: 'Click ', link: SIGN_IN_TEXT.forgotPasswordLink, after: ' to reactivate your account.' },
    };
  }
  if (error.text.includes('suspended') || error.text.includes('authorized')) {
    return { ...base, contact: { text: 'Please contact', email: SUPPORT_EMAIL } };
  }
  return base;
}

/** part 1 §8: "A code chunk load failure raises a chunk-load error naming the reason." */
export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';
  constructor(readonly reason: string) {
    super(`Loading chunk failed: ${reason}`);
  }
}

/**
 * A failure answered by a service the page calls itself, not our server (part 2 §8 Route drawing:
 * the directions service): it carries the service's `Failure` (no HTTP status), which the
 * catalogue maps in the caller's context.
 */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  constructor(readonly failure: Failure) {
    super(failure.message ?? failure.code ?? 'service failure');
  }
}
