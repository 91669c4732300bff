/**
 * Every fixed user-facing text of the spec that does not depend on a server answer: pages,
 * session prompts, action outcomes, tooltips, form labels and notices (CONVENTIONS §6). Texts
 * chosen from a failure's status or message live in `errors.ts`; validation messages live in
 * `validation/messages.ts`. Strings are copied from the spec; "the product" / "Safety Cloud
 * Dashboard" is written as PRODUCT_NAME.
 */
import { PASSWORD_EXPIRY_DAYS, PRODUCT_NAME } from './constants';
import { ALERTING_OFF_RESET_MS, MINUTE_MS } from './constants';

// ── welcome (part 1 §2) ──────────────────────────────────────────────────────
export const SIGN_IN_TEXT = {
  pending: 'Pending...',
  success: "Success! You're being redirected...",
  forgotPasswordLink: 'Forgot password?',
} as const;

/** part 1 §2: forgot password and unlock answer the same way whether or not the e-mail exists. */
export const ACCOUNT_RECOVERY_TEXT = {
  emailSentIfFound: "You'll receive an email if account was found",
} as const;

/** part 1 §2: the note under the reset form. */
export const PASSWORD_EXPIRY_NOTE = `Password expires after ${PASSWORD_EXPIRY_DAYS} days`;

// ── session (part 1 §4) ──────────────────────────────────────────────────────
export const SESSION_TEXT = {
  sessionExpired: 'Session Expired',
  sessionExpiredActivity: 'Session Expired - Activity',
  inactivityWarning: 'Inactivity Warning',
  staySignedIn: 'Stay Signed In',
} as const;

// ── pages (part 1 §2, part 2 §2) ─────────────────────────────────────────────
export const PAGE_TEXT = {
  notFound: 'Sorry, the requested URL was not found here.',
  backToMain: 'Take me back to the main page',
  crash: 'Sorry, there was an incident.',
  unauthorized: 'Sorry, you are not currently authorized to access this page.',
  mobileUnavailable: "This page isn't available on mobile devices.",
} as const;

// ── shell (part 1 §2) ────────────────────────────────────────────────────────
export const OFFLINE_BANNER =
  "Looks like your connection is having trouble - we'll keep trying to get you back online or you can try to restart your browser.";

export const UPDATE_NOTIFICATION = {
  title: 'Update Notification',
  body: 'A new version is available. Click OK to continue.',
} as const;

/** part 1 §8: the generic error alert. */
export const ERROR_ALERT = {
  title: 'Error',
  body: 'Click OK to try again',
} as const;

export const SHELL_TEXT = {
  profileAndPreferences: 'Profile & Preferences',
  newAccountsTest: 'New Accounts (test)',
  signOut: 'Sign Out',
  manageAccounts: 'Manage Accounts & Users',
  organizationSearch: 'Search for an organization...',
  referAFleet: 'Refer a Fleet',
  support: 'Support',
} as const;

// ── tooltips (part 1 §5, part 2 §4, §6) ──────────────────────────────────────
export const TOOLTIP = {
  notAuthorized: 'Not authorized',
  r2rHardware: 'R2R testing available only for HA5 and HA7 devices',
  invalidAssetStatus: 'Invalid asset status',
  r2rNotEnabled: 'R2R not enabled',
  /** part 2 §4 writes the tooltip with a period; the §8 error row has none (errors.ts). */
  onlyExportCreator: 'Only the export creator can delete.',
} as const;

// ── asset actions (part 1 §8) ────────────────────────────────────────────────
export const R2R_TEXT = {
  delivered: 'Alert Delivered',
  notDelivered: 'Alert Not Delivered',
  sending: 'Sending test',
} as const;

export const TEST_MODE_TEXT = {
  activateFailed: 'Unable to activate Test Mode',
  deactivateFailed: 'Unable to deactivate Test Mode',
  updating: 'Updating Test Mode',
  activated: 'Please activate emergency lights to send a test alert to your R2R indicator',
} as const;

export const LED_TEXT = {
  success: 'Update was successful',
  sending: 'Sending update',
} as const;

// ── map (part 1 §2, §8) ──────────────────────────────────────────────────────
/** W3C GeolocationPositionError.PERMISSION_DENIED. */
export const GEOLOCATION_PERMISSION_DENIED = 1;

export const GEOLOCATION_TEXT = {
  /** part 1 §8 writes "The product"; we name ourselves, as everywhere the spec names the product. */
  permissionDenied: `${PRODUCT_NAME} does not have permission to use your location. Enable location services in your browser.`,
  unavailable: 'Unable to retrieve your location.',
  unsupported: 'Your browser does not support geolocation',
} as const;

/** part 1 §8: code 1 (permission denied) has its own text; every other code the generic one. */
export function geolocationErrorText(code: number): string {
  return code === GEOLOCATION_PERMISSION_DENIED ? GEOLOCATION_TEXT.permissionDenied : GEOLOCATION_TEXT.unavailable;
}

export const THREE_WORD_TEXT = {
  locating: 'Locating...',
  notFound: 'what3words not found...',
} as const;

export const MAP_TEXT = {
  menuEmpty: 'Unable to find location',
  coordinatePlaceholder: 'lat, lng',
  areaSearch: 'Jump to your saved areas...',
  displayAssets: 'Display Assets',
  displayIncidents: 'Display Incidents',
  displayEvents: 'Display Events',
  add: '+ Add',
  zoomToAdd: 'Zoom to Add',
  outOfService: 'Out-of-Service',
} as const;

// ── lists (part 1 §2) ────────────────────────────────────────────────────────
export const EVENTS_TEXT = {
  searchPlaceholder: 'Search Asset, Street, or System ID',
  editLocation: 'Edit Location',
  // The spec names these parts of the panel, the detail and the edit page; the words are chosen.
  display: 'Display',
  search: 'Search events',
  list: 'Events',
  none: 'No events to show',
  active: 'Active',
  inactive: 'Inactive',
  started: 'Started',
  ended: 'Ended',
  activeVehicleCount: (n: number) => `${n} active ${n === 1 ? 'vehicle' : 'vehicles'}`,
  back: 'Back',
  notFound: 'This event is not in the recent events.',
  loading: 'Loading...',
  coordinates: 'Lat/Lon',
  roadwayHeading: 'Roadway Heading',
  headingDial: (degrees: number) => `Roadway heading ${degrees}°`,
  start: 'Start',
  end: 'End',
  duration: 'Duration',
  alertMessage: 'Alert Message',
  systemId: 'System ID',
  activeVehicles: 'Active Vehicles',
  inactiveVehicles: 'Inactive Vehicles',
  noVehicles: 'None',
  arrived: 'Arrived',
  timeToScene: 'Time to Scene',
  latitude: 'Latitude',
  longitude: 'Longitude',
  cancel: 'Cancel',
  save: 'Save',
  notEditable: 'Only an active event that is not a geo marker can be edited.',
} as const;

/** part 1 §2: 'Active Events n | Recent Events n'. */
export function eventCountsText(active: number, recent: number): string {
  return `Active Events ${active} | Recent Events ${recent}`;
}

// ── forms (part 1 §5, part 2 §5) ─────────────────────────────────────────────
export const FORM_LABEL = {
  required: 'Required *',
  nickname: 'Nickname *',
  description: 'Description *',
} as const;

/** part 1 §5 "Required fields show 'Required *'": a required field's label ends in ' *' ('Nickname' → 'Nickname *'). */
export function requiredLabel(label: string): string {
  return label.trimEnd().endsWith('*') ? label : `${label} *`;
}

// ── closures (part 2 §2) ─────────────────────────────────────────────────────
export const CLOSURE_TEXT = {
  manual: 'Manual Closure',
  activate: 'Activate',
  deactivate: 'Deactivate',
} as const;

// ── data (part 2 §2, §5) ─────────────────────────────────────────────────────
export const EXPORT_TEXT = {
  inProgress: 'Export In-Progress',
  gotIt: 'Got It',
  noAssetsToSelect: 'No Assets to select',
  noAssetsSelected: 'No Assets selected',
  noAssetsAvailable: 'No Assets Available',
} as const;

export const R2R_SEARCH_TEXT = {
  submit: 'Get R2R',
} as const;

// ── welcome pages' own words (chosen; the spec names the controls, not their words) ──
export const WELCOME_TEXT = {
  signInTitle: 'Sign in',
  signInButton: 'Sign In',
  email: 'Email',
  password: 'Password',
  newPassword: 'New Password',
  confirmPassword: 'Confirm Password',
  forgotTitle: 'Forgot password',
  forgotIntro: "Enter your account's e-mail address and we will send you a link to set a new password.",
  resetButton: 'Reset Password',
  resetTitle: 'Set a new password',
  saveNewPassword: 'Save Password',
  unlockTitle: 'Unlock your account',
  unlockIntro: 'Sign in with your password to unlock your account.',
  unlockButton: 'Unlock and Sign In',
  sendUnlockLink: 'Send a new unlock link',
  backToSignIn: 'Back to sign in',
  signingInWithLink: 'Signing you in...',
  /** part 1 §2: "a confidentiality and licence notice". */
  notice: `${PRODUCT_NAME} and the data in it are confidential and for authorized users only. Use is subject to the licence agreement of your organization; activity may be monitored.`,
} as const;

/** part 1 §2 section links; events are labelled by responder mix (`eventsSectionLabel`). */
export const SECTION_LABEL = {
  things: 'Live',
  areas: 'Areas',
  closures: 'Closures',
  zones: 'Zones',
  trips: 'Trips',
  r2r: 'R2R',
  hazards: 'Hazards',
  data: 'Data',
  reports: 'Reports',
  exports: 'Exports',
  accounts: 'Accounts',
  accounts_new: 'New Accounts (test)',
} as const;

/** Buttons of the session dialogs and alerts. */
export const DIALOG_TEXT = {
  ok: 'OK',
  close: 'Close',
} as const;

/** part 1 §2: the dismissible notice about offline assets names the support address. */
export function offlineAssetsNotice(email: string): string {
  return `Some of your assets are offline. If they should be online, contact ${email} and we will help bring them back.`;
}

/** Shell words the spec names without giving them (chosen). */
export const SHELL_EXTRA_TEXT = {
  data: 'Data',
  settings: 'Settings',
  organizations: 'Organizations',
  /** part 1 §2: the label of the acs organization chooser (a select). */
  organization: 'Organization',
  assets: 'Assets',
  placeholder: 'This section opens here soon: its lists, forms and map layers arrive with their own release.',
  loadingProfile: 'Loading your profile...',
  /** A section's code chunk on its way (the drawer's Suspense fallback). */
  loadingSection: 'Loading...',
  webglTitle: 'Your browser cannot show the map',
  webglIntro: 'The map needs WebGL, which is turned off or not supported in this browser. To turn it on:',
  supportTitle: 'Support',
  phone: 'Phone',
  email: 'E-mail',
  dismiss: 'Dismiss',
  mainNavigation: 'Main navigation',
  mobileNavigation: 'Sections',
  /** On a phone: the section's page or the map (a choice the spec does not show). */
  mobileView: 'Show',
  mobileList: 'List',
  mobileMap: 'Map',
  profileMenu: 'Profile menu',
  /** part 1 §4: situational-awareness mode (no inactivity sign-out). */
  awarenessMode: 'Situational awareness mode',
} as const;

/** part 1 §2: browser-specific steps of the WebGL dialog. */
export const WEBGL_STEPS: Readonly<Record<'chrome' | 'edge' | 'firefox' | 'safari' | 'other', string>> = {
  chrome: "Chrome: open Settings › System, turn on 'Use graphics acceleration when available', then restart Chrome.",
  edge: "Edge: open Settings › System and performance, turn on 'Use graphics acceleration when available', then restart Edge.",
  firefox: 'Firefox: open about:config, set webgl.disabled to false, then restart Firefox.',
  safari: 'Safari: open Settings › Advanced, tick "Show features for web developers", then under Feature Flags turn on WebGL.',
  other: 'Turn on hardware (graphics) acceleration in your browser settings, or open the dashboard in a current version of Chrome, Edge, Firefox or Safari.',
};

/** The map controls' own words (part 1 §2 names the controls without giving their labels: chosen). */
export const MAP_CONTROL_TEXT = {
  controls: 'Map controls',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  mapType: 'Map type',
  mapTypes: { roadmap: 'Roadmap', satellite: 'Satellite', hybrid: 'Hybrid', terrain: 'Terrain' },
  /** The standalone map draws one offline basemap whatever the type (README). */
  mapTypesNeedGoogle: 'Satellite, hybrid and terrain need Google Maps',
  findMyLocation: 'Find my location',
  locating: 'Finding your location...',
  clearLocation: 'Clear location',
  showAll: 'Show all',
  coordinateSearch: 'Go to coordinates',
  coordinateInvalid: 'Enter two numbers: lat -90 to 90, lng -180 to 180',
  menu: 'Map point',
  copy: 'Copy',
  copyCoordinates: 'Copy coordinates',
  copyWords: 'Copy three-word address',
  copied: 'Copied',
  googleDirections: 'Directions in Google Maps',
  waze: 'Navigate with Waze',
  close: 'Close',
  toggles: 'Map views',
  groupView: 'Group view',
  densityView: 'Density view',
  stationView: 'Station view',
  pinMarker: 'Pin marker',
  showOffline: 'Show offline',
  /** Beyond the spec. */
  unitAvailability: 'Unit availability',
  display: 'Display',
  noAreas: 'No saved areas match',
} as const;

// ── the Live list (part 1 §2 "Asset list"; the spec names the controls, the words are chosen) ──
export const LIVE_LIST_TEXT = {
  search: 'Search assets',
  filters: 'Filters',
  apply: 'Apply',
  clear: 'Clear',
  status: 'Status',
  outOfService: 'Out of service',
  feed: 'Feed',
  type: 'Type',
  subtype: 'Subtype',
  anyType: 'All types',
  anySubtype: 'All subtypes',
  groupView: 'Group view',
  densityView: 'Density view',
  owned: 'Owned',
  managed: 'Managed',
  assets: 'Assets',
  countsByStatus: 'Assets by status',
  empty: 'No assets match the search and filters.',
} as const;

/** The progress bar's words while the fleet's pages load (part 1 §7 paging). */
export function listLoadingText(loaded: number, total: number): string {
  return `Loading assets… ${loaded} of ${total} pages`;
}

/** The list's size line: listed (filter-matching) of all assets. */
export function listSizeText(listed: number, total: number): string {
  return `${listed} of ${total} assets`;
}

// ── asset detail and edit (part 1 §2 "Asset detail", §4 "Other", §5, §6) ─────
export const ASSET_TEXT = {
  /** part 1 §4: "when alerting is turned off it resets to on after 60 minutes (info text)". */
  alertingOffInfo: `Alerting is off. It turns back on automatically after ${ALERTING_OFF_RESET_MS / MINUTE_MS} minutes.`,
  /** part 1 §6: managers and access users get badges MANAGER and ACCESS. */
  managerBadge: 'MANAGER',
  accessBadge: 'ACCESS',
  // The section and field names the spec names without giving their words (chosen).
  back: 'Back',
  edit: 'Edit',
  status: 'Status',
  profile: 'Profile',
  organizationAccess: 'Organization Access',
  associations: 'Associations',
  actions: 'Actions',
  notFound: 'This asset is not in your fleet.',
  loading: 'Loading asset...',
  noOrganizationAccess: 'No other organization manages or accesses this asset.',
  r2rTest: 'Send R2R Test Alert',
  testMode: 'Test Mode',
  ledIntensity: 'LED Intensity',
  sendLed: 'Send',
} as const;

/** The dashboard map's event and area popups (part 1 §2 Map "Hover and pin popups"; words chosen). */
export const MAP_POPUP_TEXT = {
  eventActive: 'Active',
  eventEnded: 'Ended',
  street: 'Street',
  start: 'Start',
  activeVehicles: 'Active vehicles',
  inactiveVehicles: 'Inactive vehicles',
  areaType: 'Type',
  areaAssets: 'Assets',
  /** Before the worker's first count. */
  counting: 'Counting...',
  close: 'Close popup',
} as const;

// ── the section kit (part 2 §2 lists and details; chosen words where the spec gives none) ─────
/** part 2 §2 "It shows the count as Showing (x/total)". */
export function showingText(shown: number, total: number): string {
  return `Showing (${shown}/${total})`;
}

export const SECTION_TEXT = {
  back: 'Back',
  edit: 'Edit',
  delete: 'Delete',
  cancel: 'Cancel',
  search: 'Search',
  addNew: 'Add New',
  loading: 'Loading...',
  /** chosen: the confirmation part 2 §2 asks for before a delete. */
  confirmDeleteTitle: (name: string) => `Delete ${name}?`,
  confirmDeleteBody: 'This cannot be undone.',
  deleting: 'Deleting...',
} as const;
