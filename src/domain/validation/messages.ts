/**
 * Validation messages of part 1 §5 and part 2 §5, defined once. Where the spec shows a message it
 * is copied exactly; where it names a rule but shows no message, the message is chosen here and
 * marked "chosen".
 */
import {
  AREA_NAME_MAX,
  CLOSURE_ALERT_MESSAGE_MAX,
  CLOSURE_MAX_AHEAD_MONTHS,
  COUNTRY_CODE_MAX,
  DEVICE_PIN_MAX,
  EXCLUSION_MIN_POINTS,
  HEARTBEAT_INTERVAL_MAX_S,
  IMPACTED_LANES_MAX,
  IMPACTED_LANES_MIN,
  NICKNAME_MAX,
  PASSWORD_MIN_LENGTH,
  PASSWORD_SPECIAL_CHARACTERS,
  REPORT_ASSETS_MAX,
  REPORT_ASSETS_MIN,
  TRIP_RANGE_MAX_MS,
  HOUR_MS,
} from '../constants';
import { LAT_MAX, LAT_MIN, LNG_MAX, LNG_MIN } from '../coordinates';

/** part 1 §5: roadway heading 0 to 360 degrees. */
export const HEADING_MIN = 0;
export const HEADING_MAX = 360;

export const MESSAGES = {
  // ── general (part 1 §5, part 2 §5) ──
  required: 'Required',
  invalidEmail: 'Must be a valid email',
  /** Nickname, plate, registry and vehicle id share the limit of 50. */
  max50: `Must be ${NICKNAME_MAX} or fewer characters`,
  max100: `${AREA_NAME_MAX} Max Characters`,
  max40: `${CLOSURE_ALERT_MESSAGE_MAX} Max Characters`,
  /** chosen */
  countryCodeMax: `Must be ${COUNTRY_CODE_MAX} or fewer characters`,

  // ── password (part 1 §5, part 2 §5) ──
  shouldMatchPassword: 'Should match password',
  /** chosen: the live rule list's labels double as the field's messages. */
  passwordLength: `At least ${PASSWORD_MIN_LENGTH} characters`,
  passwordDigit: 'At least one number',
  passwordUppercase: 'At least one uppercase letter',
  passwordLowercase: 'At least one lowercase letter',
  passwordSpecial: `At least one special character (${PASSWORD_SPECIAL_CHARACTERS})`,

  // ── asset (part 1 §5) ──
  onlyNumbersOrLetters: 'Please only use numbers or letters',
  providerAlreadyUsed: 'Provider already used',
  providersInUse: 'Available providers in use',

  // ── location and coordinates (part 1 §5; ranges chosen) ──
  latitudeRange: `Must be between ${LAT_MIN} and ${LAT_MAX}`,
  longitudeRange: `Must be between ${LNG_MIN} and ${LNG_MAX}`,
  headingRange: `Must be between ${HEADING_MIN} and ${HEADING_MAX}`,

  // ── address (part 1 §5, part 2 §5) ──
  invalidZip: 'Invalid zip code',
  invalidPostalCode: 'Invalid postal code',

  // ── area (part 2 §5) ──
  areaPosition: "ERROR: Please set new map location. Click 'View Instructions' above if needed",
  exclusionPoints: `Exclusions must have at least ${EXCLUSION_MIN_POINTS} points`,

  // ── closure (part 2 §5) ──
  closureRoute: "ERROR: Please create new Closure on map. Click 'View Instructions' above if needed.",
  endDateRequired: 'End date required',
  /** chosen */
  endDateTooFar: `Must be within ${CLOSURE_MAX_AHEAD_MONTHS} months`,
  /** chosen */
  endDateInPast: 'End date must be in the future',
  /** chosen */
  impactedLanesRange: `Must be between ${IMPACTED_LANES_MIN} and ${IMPACTED_LANES_MAX}`,

  // ── trips, reports, exports (part 2 §5) ──
  assetsMin: `Must select at least ${REPORT_ASSETS_MIN} Asset`,
  assetsMax: `${REPORT_ASSETS_MAX} Assets max`,
  pastDate: 'Must be past date',
  /** A date typed that cannot be read (a year 0000) or falls outside what can be sent (part 2 §5; chosen words). */
  dateRange: 'Enter a date between 1970 and 2100',
  datesDifferent: 'Dates must be different',
  endAfterStart: 'End time must be after Start time',
  rangeMax24h: `Select up to ${TRIP_RANGE_MAX_MS / HOUR_MS} hours`,
  hazardTypesMin: 'Must select at least 1 type',
  exceedsMaxRange: 'Exceeds max time range',
  closureExportContent: 'Must include at least 1 Closure type or Asset',

  // ── device config (part 2 §5) ──
  indicatorPinSameAsWarning: 'Cannot be the same as Warning Light Pin',
  /** chosen */
  pinRange: `Must be a whole number from 0 to ${DEVICE_PIN_MAX}`,
  /** chosen */
  heartbeatIntervalRange: `Must be a whole number from 1 to ${HEARTBEAT_INTERVAL_MAX_S}`,

  // ── accounts (part 2 §5 user, address, password) ──
  /** chosen: a US address's state is one of the states. */
  invalidState: 'Select a state',
  /** chosen: a Canadian address's state is one of the provinces. */
  invalidProvince: 'Select a province',
  /** chosen */
  invalidPhone: 'Invalid phone number',
  /** chosen */
  invalidTimeZone: 'Select a time zone',
} as const;
