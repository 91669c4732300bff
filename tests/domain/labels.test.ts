import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_RECOVERY_TEXT,
  ERROR_ALERT,
  EVENTS_TEXT,
  EXPORT_TEXT,
  FORM_LABEL,
  GEOLOCATION_TEXT,
  LED_TEXT,
  MAP_TEXT,
  OFFLINE_BANNER,
  PAGE_TEXT,
  PASSWORD_EXPIRY_NOTE,
  R2R_TEXT,
  SESSION_TEXT,
  SIGN_IN_TEXT,
  TEST_MODE_TEXT,
  THREE_WORD_TEXT,
  TOOLTIP,
  UPDATE_NOTIFICATION,
  eventCountsText,
  geolocationErrorText,
} from '../../src/domain/labels';

describe('fixed texts of part 1 and part 2', () => {
  it.each<[string, string, string]>([
    ['part1 §2 sign-in pending', SIGN_IN_TEXT.pending, 'Pending...'],
    ['part1 §2 sign-in success', SIGN_IN_TEXT.success, "Success! You're being redirected..."],
    ['part1 §2 forgot and unlock', ACCOUNT_RECOVERY_TEXT.emailSentIfFound, "You'll receive an email if account was found"],
    ['part1 §2 reset note', PASSWORD_EXPIRY_NOTE, 'Password expires after 90 days'],
    ['part1 §2 not found', PAGE_TEXT.notFound, 'Sorry, the requested URL was not found here.'],
    ['part1 §2 back to main', PAGE_TEXT.backToMain, 'Take me back to the main page'],
    ['part1 §2 crash', PAGE_TEXT.crash, 'Sorry, there was an incident.'],
    ['part1 §2 unauthorized', PAGE_TEXT.unauthorized, 'Sorry, you are not currently authorized to access this page.'],
    ['part1 §2 mobile', PAGE_TEXT.mobileUnavailable, "This page isn't available on mobile devices."],
    [
      'part1 §2 offline banner',
      OFFLINE_BANNER,
      "Looks like your connection is having trouble - we'll keep trying to get you back online or you can try to restart your browser.",
    ],
    ['part1 §2 update title', UPDATE_NOTIFICATION.title, 'Update Notification'],
    ['part1 §2 update body', UPDATE_NOTIFICATION.body, 'A new version is available. Click OK to continue.'],
    ['part1 §4 session expired', SESSION_TEXT.sessionExpired, 'Session Expired'],
    ['part1 §4 session expired activity', SESSION_TEXT.sessionExpiredActivity, 'Session Expired - Activity'],
    ['part1 §4 inactivity warning', SESSION_TEXT.inactivityWarning, 'Inactivity Warning'],
    ['part1 §4 stay signed in', SESSION_TEXT.staySignedIn, 'Stay Signed In'],
    ['part1 §8 alert title', ERROR_ALERT.title, 'Error'],
    ['part1 §8 alert body', ERROR_ALERT.body, 'Click OK to try again'],
    ['part1 §8 R2R success', R2R_TEXT.delivered, 'Alert Delivered'],
    ['part1 §8 R2R failure', R2R_TEXT.notDelivered, 'Alert Not Delivered'],
    ['part1 §8 R2R pending', R2R_TEXT.sending, 'Sending test'],
    ['part1 §8 test mode on failure', TEST_MODE_TEXT.activateFailed, 'Unable to activate Test Mode'],
    ['part1 §8 test mode off failure', TEST_MODE_TEXT.deactivateFailed, 'Unable to deactivate Test Mode'],
    ['part1 §8 test mode pending', TEST_MODE_TEXT.updating, 'Updating Test Mode'],
    ['part1 §8 test mode on', TEST_MODE_TEXT.activated, 'Please activate emergency lights to send a test alert to your R2R indicator'],
    ['part1 §8 LED success', LED_TEXT.success, 'Update was successful'],
    ['part1 §8 LED pending', LED_TEXT.sending, 'Sending update'],
    ['part1 §8 geolocation unsupported', GEOLOCATION_TEXT.unsupported, 'Your browser does not support geolocation'],
    ['part1 §8 three-word pending', THREE_WORD_TEXT.locating, 'Locating...'],
    ['part1 §8 three-word failure', THREE_WORD_TEXT.notFound, 'what3words not found...'],
    ['part1 §8 map menu empty', MAP_TEXT.menuEmpty, 'Unable to find location'],
    ['part1 §5 tooltip', TOOLTIP.notAuthorized, 'Not authorized'],
    ['part1 §5 tooltip', TOOLTIP.r2rHardware, 'R2R testing available only for HA5 and HA7 devices'],
    ['part1 §5 tooltip', TOOLTIP.invalidAssetStatus, 'Invalid asset status'],
    ['part1 §5 tooltip', TOOLTIP.r2rNotEnabled, 'R2R not enabled'],
    ['part2 §4 export delete tooltip', TOOLTIP.onlyExportCreator, 'Only the export creator can delete.'],
    ['part1 §5 required label', FORM_LABEL.required, 'Required *'],
    ['part1 §5 nickname label', FORM_LABEL.nickname, 'Nickname *'],
    ['part2 §5 description label', FORM_LABEL.description, 'Description *'],
    ['part1 §2 events search', EVENTS_TEXT.searchPlaceholder, 'Search Asset, Street, or System ID'],
    ['part2 §2 export step 3', EXPORT_TEXT.inProgress, 'Export In-Progress'],
    ['part2 §5 empty list', EXPORT_TEXT.noAssetsToSelect, 'No Assets to select'],
  ])('%s: %s', (_name, actual, expected) => {
    expect(actual).toBe(expected);
  });

  it.each<[number, string]>([
    [1, 'Lightbar does not have permission to use your location. Enable location services in your browser.'],
    [2, 'Unable to retrieve your location.'],
    [3, 'Unable to retrieve your location.'],
  ])('part1 §8 geolocation code %i', (code, expected) => {
    expect(geolocationErrorText(code)).toBe(expected);
  });

  it('part1 §2 event counts', () => {
    expect(eventCountsText(2, 17)).toBe('Active Events 2 | Recent Events 17');
  });
});
