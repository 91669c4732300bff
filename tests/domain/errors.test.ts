import { describe, expect, it } from 'vitest';
import { SUPPORT_EMAIL } from '../../src/domain/constants';
import {
  CLIENT_ERROR_CODES,
  ChunkLoadError,
  ERROR_CONTEXTS,
  errorText,
  isNoAnswerOrBusy,
  signInErrorDisplay,
  type ErrorContext,
  type Failure,
  type UserError,
} from '../../src/domain/errors';

type Row = [context: ErrorContext, failure: Failure, expected: UserError];

const t = (text: string, detail?: string): UserError => (detail === undefined ? { text } : { text, detail });

// part 1 §8, one row per catalogue line, in the spec's order.
const PART1: Row[] = [
  // Sign-in
  ['signIn', { status: 0 }, t('Connection failed.')],
  ['signIn', { status: 400, message: 'user_suspended' }, t('User is suspended.')],
  ['signIn', { status: 400, code: 'user_suspended' }, t('User is suspended.')],
  ['signIn', { status: 400, message: 'invalid_grant' }, t('Email and/or password incorrect.')],
  ['signIn', { status: 404 }, t('Email and/or password incorrect.')],
  ['signIn', { status: 403 }, t('Your user is not authorized to access Lightbar.')],
  [
    'signIn',
    { status: 401, code: 'expired' },
    t('Your account has expired due to inactivity.', 'Please contact your provider to restore your account.'),
  ],
  [
    'signIn',
    { status: 401, code: 'not_authorized_method' },
    t('Your organization is managing user access to the dashboard.', 'Please contact your administrator for access.'),
  ],
  ['signIn', { status: 401, code: 'user_suspended' }, t('User is suspended.')],
  ['signIn', { status: 401, code: 'not_safetycloud_enabled' }, t('Your user is not authorized to access Lightbar.')],
  ['signIn', { status: 401, code: 'locked_out', message: 'Account locked for 30 minutes' }, t('Account locked for 30 minutes')],
  ['signIn', { status: 401, code: 'something_else' }, t('Unknown failure.')],
  // Token refresh and verify
  ['tokenRefresh', { status: 0 }, t('Connection failed.')],
  ['tokenRefresh', { status: 422 }, t('Access token is expired or does not exist.')],
  ['tokenVerify', { status: 0 }, t('Connection failed.')],
  ['tokenVerify', { status: 422 }, t('Access token is expired or does not exist.')],
  // Forgot and unlock
  ['forgot', { status: 0 }, t('Connection failed.')],
  ['forgot', { status: 404 }, t("There's no user with such email.")],
  ['unlock', { status: 0 }, t('Connection failed.')],
  ['unlock', { status: 404 }, t("There's no user with such email.")],
  // Reset
  ['reset', { status: 401, code: 'user_suspended' }, t('User is suspended.', 'Please contact support')],
  ['reset', { status: 404 }, t('Reset token is expired or does not exist.')],
  ['reset', { status: 422, message: 'Password is the same as the current one' }, t('Cannot be same as last 10 passwords.')],
  ['reset', { status: 422, message: 'Password was used before' }, t('Cannot be same as last 10 passwords.')],
  ['reset', { status: 422, message: 'Token expired' }, t('Reset token is expired or does not exist.')],
  ['reset', { status: 422, message: 'Password too weak' }, t('Password does not fulfill password requirements.')],
  // Profile load
  [
    'profile',
    { status: 200, code: CLIENT_ERROR_CODES.organizationMismatch },
    t('Invalid Credentials', 'Organization was changed, please log back in.'),
  ],
  ['profile', { status: 500 }, t('Error', 'Please log back in.')],
  // Organization lookups
  ['organization', { status: 0 }, t('Connection failed')],
  ['organization', { status: 404 }, t('Organization not found')],
  ['organization', { status: 500 }, t('Unknown failure')],
  // General
  ['general', { status: 0 }, t('Connection failed.')],
  ['general', { status: 500 }, t('Unknown failure.')],
  // Location update (422, by message content)
  ['locationUpdate', { status: 422, message: 'Location is no longer active' }, t('Location no longer active')],
  ['locationUpdate', { status: 422, message: 'User has no access' }, t('User does not have access to Location')],
  ['locationUpdate', { status: 422, message: 'Record not found' }, t('Location not found')],
  ['locationUpdate', { status: 422, message: 'Roadway heading invalid' }, t('Unable to update Location')],
  ['locationUpdate', { status: 404, message: 'Location not found' }, t('Location not found')],
  // Asset save
  ['assetSave', { status: 0 }, t('Connection failed')],
  ['assetSave', { status: 422, message: 'Thing not found' }, t('Asset not found')],
  ['assetSave', { status: 422, message: 'nickname is locked' }, t('Asset nickname cannot be updated')],
  ['assetSave', { status: 422, message: 'VIN has already been taken' }, t('VIN has already been taken')],
  ['assetSave', { status: 500 }, t('Unknown failure')],
  ['assetSave', { status: 404, message: 'Thing not found' }, t('Asset not found')],
  // Asset action (R2R, test mode, LED)
  ['assetAction', { status: 0 }, t('Connection failed')],
  ['assetAction', { status: 404 }, t('Asset not found')],
  ['assetAction', { status: 422, message: 'Timed out waiting for device' }, t('Request timed out')],
  ['assetAction', { status: 422, message: 'Device busy' }, t('Something went wrong')],
  ['assetAction', { status: 500 }, t('Unknown failure')],
];

// part 2 §8 table, one row per line, in the spec's order.
const PART2: Row[] = [
  ['lists', { status: 0 }, t('Connection failed')], // All | 0
  ['lists', { status: 500 }, t('Unknown failure')], // All | default
  ['lists', { status: 404 }, t('Organization not found')],
  ['closureSave', { status: 404 }, t('Closure not found')],
  [
    'closureSave',
    { status: 422, message: 'duplicate key value violates unique constraint' },
    t('ID is already in use. Please select a new ID'),
  ],
  ['closureSave', { status: 422, message: 'Closure is not managed here' }, t('Closure not managed by Dashboard')],
  // part 2 §8 Asset save errors (asset association in closures).
  ['closureSave', { status: 422, message: 'thing_id: Asset not found' }, t('Asset not found')],
  ['closureSave', { status: 422, message: 'nickname: cannot be updated' }, t('Asset nickname cannot be updated')],
  ['closureSave', { status: 422, message: 'end_time: must be within 3 months' }, t('Unable to save Closure')],
  ['closureSave', { status: 500 }, t('Unable to save Closure')],
  ['closureDelete', { status: 422, message: 'Closure not managed by Dashboard' }, t('Closure not managed by Dashboard')],
  ['closureDelete', { status: 500 }, t('Unable to delete Closure')],
  ['closureToggle', { status: 500 }, t('Unable to Activate/Deactivate')],
  ['areaSave', { status: 422, message: 'Geometry is invalid' }, t('Exclusion shape is invalid')],
  ['areaSave', { status: 422, message: 'Polygon is too large' }, t('Polygon area is too large, please keep area under .5 square miles')],
  ['areaSave', { status: 500 }, t('Unable to save Area')],
  ['areaDelete', { status: 404 }, t('Area not found')],
  ['areaDelete', { status: 422 }, t('Unable to delete Area')],
  ['zonesFetch', { status: 0 }, t('Connection failed')],
  ['zonesFetch', { status: 404 }, t('Organization not found')],
  ['zonesFetch', { status: 500 }, t('Unknown failure')],
  ['trips', { status: 404 }, t('Asset not found')],
  ['routeDrawing', { message: 'ZERO_RESULTS' }, t('ZERO_RESULTS')],
  ['routeDrawing', {}, t('Something went wrong')],
  ['reports', { status: 500, message: 'Report service down' }, t('Report service down')],
  ['reports', { status: 500 }, t('Unknown failure')],
  ['reportFile', { status: 200, code: CLIENT_ERROR_CODES.fileMissing }, t('File not found')],
  ['exports', { status: 200 }, t('The requested exports have failed and are no longer In-Progress')],
  ['exportDelete', { status: 403, code: CLIENT_ERROR_CODES.notCreator }, t('Only the export creator can delete')],
  ['userCalls', { status: 422 }, t('User not found')],
  [
    'userCalls',
    { status: 422, code: 'cannot_delete_self', message: 'You cannot delete your own user' },
    t('You cannot delete your own user'),
  ],
  ['organizationUpdate', { status: 422 }, t('Organization not found')],
  ['addUser', { status: 422, message: 'Email has already been taken' }, t('Email is already in use. Please try another one.')],
  ['addUser', { status: 500 }, t('Unknown failure.')],
  ['updateUser', { status: 422, message: "Couldn't find User" }, t('The selected user could not be found')],
  ['updateUser', { status: 500 }, t('There was an error submitting the form')],
  ['apiKeys', { status: 422, code: CLIENT_ERROR_CODES.apiKeyLimit }, t('Your User has reached the API Key limit')],
  // designed: device configuration (texts chosen; the server's field message on a refused save)
  ['deviceConfigs', { status: 404 }, t('Device configuration not found')],
  [
    'deviceConfigs',
    { status: 422, message: 'indicator_pin: Cannot be the same as Warning Light Pin' },
    t('indicator_pin: Cannot be the same as Warning Light Pin'),
  ],
  // designed: WZDx feed subscriptions (texts chosen; the server's field message on a refused save)
  ['wzdxFeeds', { status: 404, message: 'WZDx feed not found' }, t('WZDx feed not found')],
  ['wzdxFeeds', { status: 404, message: 'Organization not found' }, t('Organization not found')],
  ['wzdxFeeds', { status: 403, message: 'Not authorized' }, t('Not authorized')],
  [
    'wzdxFeeds',
    { status: 422, message: 'poll_interval_s: Must be at least 60 seconds' },
    t('poll_interval_s: Must be at least 60 seconds'),
  ],
];

describe('part1 §8 error catalogue', () => {
  it.each(PART1)('%s %j', (context, failure, expected) => {
    expect(errorText(context, failure)).toEqual(expected);
  });
});

describe('part2 §8 error catalogue', () => {
  it.each(PART2)('%s %j', (context, failure, expected) => {
    expect(errorText(context, failure)).toEqual(expected);
  });

  // The "All" rows reach every part 2 context without its own row for the status.
  it.each<[ErrorContext, number, string]>([
    ['closureSave', 0, 'Connection failed'],
    ['closureDelete', 0, 'Connection failed'],
    ['areaSave', 0, 'Connection failed'],
    ['areaDelete', 0, 'Connection failed'],
    ['areaDelete', 500, 'Unknown failure'],
    ['trips', 0, 'Connection failed'],
    ['trips', 500, 'Unknown failure'],
    ['reports', 0, 'Connection failed'],
    ['reportFile', 500, 'Unknown failure'],
    ['exportDelete', 500, 'Unknown failure'],
    ['userCalls', 0, 'Connection failed'],
    ['organizationUpdate', 500, 'Unknown failure'],
    ['addUser', 0, 'Connection failed'],
    ['updateUser', 0, 'Connection failed'],
    ['apiKeys', 500, 'Unknown failure'],
    ['apiKeys', 0, 'Connection failed'],
    ['deviceConfigs', 0, 'Connection failed'],
    ['deviceConfigs', 500, 'Unknown failure'],
    ['wzdxFeeds', 0, 'Connection failed'],
    ['wzdxFeeds', 500, 'Unknown failure'],
  ])('part2 §8 All rows: %s status %i → %s', (context, status, expected) => {
    expect(errorText(context, { status })).toEqual({ text: expected });
  });

  it('matches "containing" case-sensitively, as the spec writes the words', () => {
    expect(errorText('assetAction', { status: 422, message: 'timed out' }).text).toBe('Something went wrong');
    expect(errorText('addUser', { status: 422, message: 'email taken' }).text).toBe('Unknown failure.');
  });

  it('answers every context', () => {
    for (const context of ERROR_CONTEXTS) expect(errorText(context, { status: 500 }).text).not.toBe('');
  });
});

describe('part1 §8 sign-in display', () => {
  it.each<[string, UserError, ReturnType<typeof signInErrorDisplay>]>([
    [
      'inactivity adds the Forgot password? prompt',
      t('Your account has expired due to inactivity.', 'Please contact your provider to restore your account.'),
      {
        text: 'Your account has expired due to inactivity.',
        detail: 'Please contact your provider to restore your account.',
        prompt: { before: 'Click ', link: 'Forgot password?', after: ' to reactivate your account.' },
      },
    ],
    [
      'suspended adds the Please contact line',
      t('User is suspended.'),
      { text: 'User is suspended.', contact: { text: 'Please contact', email: SUPPORT_EMAIL } },
    ],
    [
      'authorized adds the Please contact line',
      t('Your user is not authorized to access Lightbar.'),
      { text: 'Your user is not authorized to access Lightbar.', contact: { text: 'Please contact', email: SUPPORT_EMAIL } },
    ],
    ['others as they are', t('Email and/or password incorrect.'), { text: 'Email and/or password incorrect.' }],
  ])('%s', (_name, error, expected) => {
    expect(signInErrorDisplay(error)).toEqual(expected);
  });
});

describe('part1 §8 chunk load', () => {
  it('names the reason', () => {
    const error = new ChunkLoadError('timeout');
    expect(error.name).toBe('ChunkLoadError');
    expect(error.message).toContain('timeout');
  });
});

describe('part1 §8 no answer or a busy server', () => {
  it.each<[Failure, boolean]>([
    [{ status: 0 }, true],
    [{ status: 502 }, true],
    [{ status: 503, code: 'overloaded' }, true],
    [{ status: 504 }, true],
    [{ status: 401 }, false],
    [{ status: 500 }, false],
    [{ status: 422 }, false],
    [{ message: 'no route' }, false],
  ])('%j → %s', (failure, expected) => {
    expect(isNoAnswerOrBusy(failure)).toBe(expected);
  });
});
