/**
 * Every fixed user-facing text of the spec that does not depend on a server answer: pages,
 * session prompts, action outcomes, tooltips, form labels and notices (CONVENTIONS §6). Texts
 * chosen from a failure's status or message live in `errors.ts`; validation messages live in
 * `validation/messages.ts`. Strings are copied from the spec; "the product" / "Safety Cloud
 * Dashboard" is written as PRODUCT_NAME.
 */
import { PASSWORD_EXPIRY_DAYS, PRODUCT_NAME, SUPPORT_EMAIL } from './constants';
import { ALERTING_OFF_RESET_MS, METRES_PER_MILE_EXACT, MINUTE_MS } from './constants';

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
  // Incident notes and acknowledgement (docs/decisions/spec.md "Incident notes and acknowledgement"); the words are chosen.
  notes: 'Notes',
  noNotes: 'No notes yet',
  newNote: 'New note',
  addNote: 'Add note',
  noteAuthorUnknown: 'Unknown user',
  acknowledge: 'Acknowledge',
  acknowledged: (name: string, time: string) => `Acknowledged by ${name} at ${time}`,
  notAcknowledged: 'Not acknowledged',
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
  /** chosen: the quick toggle asks before it ends a closure its WZDx feed publishes. */
  deactivateTitle: (description: string) => `Deactivate ${description}?`,
  deactivatePublishedBody:
    'This closure is published in your WZDx feed. Deactivating it ends it there too, for every app that reads the feed.',
  // Lightbar's words (the spec names none) for the closures section's screens:
  singular: 'Closure',
  list: 'Closures',
  search: 'Search closures',
  searchPlaceholder: 'Search',
  filters: 'Filters',
  type: 'Type',
  status: 'Status',
  connection: 'Online / Offline',
  none: 'No closures match the filters',
  loading: 'Loading closures...',
  notFound: 'Closure not found',
  wzdx: 'WZDx',
  outOfService: 'Out of service',
  addNew: 'Add Closure',
  edit: 'Edit',
  delete: 'Delete',
  newTitle: 'New Closure',
  editTitle: 'Edit Closure',
  /** part 2 §4: feed closures cannot be edited or deleted, because the WZDx feed manages them. */
  feedManaged: 'This closure is managed by the WZDx feed and cannot be edited or deleted.',
  startTime: 'Start time',
  endTime: 'End time',
  association: 'Association',
  closureType: 'Type',
  streetStart: 'Start street',
  streetEnd: 'End street',
  positionStart: 'Start position',
  positionEnd: 'End position',
  alertMessage: 'Alert message',
  direction: 'Direction of travel',
  impactedLanes: 'Impacted lanes',
  owner: 'Owner',
  wzdxBlock: 'WZDx',
  wzdxId: 'WZDx ID',
  locationMethod: 'Location method',
  vehicleImpact: 'Vehicle impact',
  groupId: 'Group ID',
  compliant: 'WZDx compliant',
  published: 'Published to the WZDx feed',
  notPublished: 'Not published',
  yes: 'Yes',
  no: 'No',
  none_: 'None',
  display: 'Display closure',
  path: 'Closure path',
  drawPath: 'Draw path on map',
  /** chosen: ends the path as Enter does (a phone has no Enter key). */
  finishPath: 'Finish path',
  redrawPath: 'Redraw path',
  drawing: 'Click the map to place the start, any turns, then the end; press Enter to finish, Escape to cancel.',
  instructions: 'View Instructions',
  routing: 'Routing along roads...',
  routedAlong: (metres: number) => `Route follows the roads: ${(metres / METRES_PER_MILE_EXACT).toFixed(2)} mi`,
  straightPath: 'No route along roads: the drawn straight path is used.',
  asset: 'Asset',
  noAsset: 'No asset (manual closure)',
  description: 'Description *',
  alertMessageField: 'Alert message',
  directionNone: 'None',
  activeSwitch: 'Active now',
  scheduledSwitch: 'Scheduled',
  inactiveNote: 'Inactive: no start or end time.',
  publish: 'Publish to WZDx feed',
  groupHint: 'Free text or an existing group',
  save: 'Save',
  saving: 'Saving...',
  cancel: 'Cancel',
  counter: (length: number, max: number) => `${length}/${max}`,
  directions: { N: 'North', E: 'East', S: 'South', W: 'West' },
  types: { automated: 'Automated', feed: 'Feed', manual: 'Manual' },
  statuses: { active: 'Active', standby: 'Standby', pending: 'Pending', offline: 'Offline' },
  connections: { online: 'Online', offline: 'Offline', 'out-of-service': 'Out of service' },
} as const;

// ── data (part 2 §2, §5) ─────────────────────────────────────────────────────
export const EXPORT_TEXT = {
  inProgress: 'Export In-Progress',
  gotIt: 'Got It',
  noAssetsToSelect: 'No Assets to select',
  noAssetsSelected: 'No Assets selected',
  noAssetsAvailable: 'No Assets Available',
} as const;

/** Data section words the spec names (§2 'Monthly Reports', 'Data Exports', Refresh, Create New) or leaves to us (chosen). */
export const DATA_TEXT = {
  monthlyReports: 'Monthly Reports',
  dataExports: 'Data Exports',
  refresh: 'Refresh',
  createNew: 'Create New',
  download: 'Download',
  delete: 'Delete',
  noReports: 'No monthly reports yet. A report is made on the 1st of each month for the month before.',
  noExports: 'No exports here.',
  /** part 2 §4 "with a support request prompt" (chosen words). */
  supportPrompt: `Please try again, or send a support request to ${SUPPORT_EMAIL} with the export's title.`,
  waiting: 'Waiting to start',
  columnTitle: 'Title',
  columnType: 'Type',
  columnRange: 'Range',
  columnRequested: 'Requested',
  columnProgress: 'Progress',
  columnActions: 'Actions',
  reason: 'Reason',
  tabsLabel: 'Export status',
  // the wizard (part 2 §2, §4, §5)
  wizardStepType: 'Choose the export type',
  wizardStepForm: 'Export details',
  back: 'Back',
  next: 'Next',
  submit: 'Export',
  submitting: 'Exporting...',
  title: 'Title',
  startTime: 'Start time',
  endTime: 'End time',
  useUtc: 'Times in UTC',
  organization: 'Organization',
  assets: 'Assets',
  selectedAssets: 'Selected assets',
  assetSearch: 'Search assets',
  remove: 'Remove',
  includeNoThingIl: 'Include incidents without an asset',
  closuresToInclude: 'Closures to include',
  manualClosures: 'Manual closures',
  feedClosures: 'Feed closures',
  inProgressBody: 'Your export is being prepared. It appears under Completed in Data Exports when it is ready to download.',
} as const;

/** The In-Progress row: rows written so far, of how many. */
export function exportRowsText(written: number, total: number | null): string {
  const n = (value: number) => value.toLocaleString('en-US');
  return total === null ? `${n(written)} rows written` : `${n(written)} of ${n(total)} rows`;
}

/** The In-Progress row's estimate of the time left, in whole seconds or minutes. */
export function exportEstimateText(remainingMs: number): string {
  const seconds = Math.max(1, Math.round(remainingMs / 1000));
  if (seconds < 60) return `About ${seconds} s left`;
  return `About ${Math.round(seconds / 60)} min left`;
}

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
  loadingProfile: 'Loading your profile...',
  /** A section's code chunk on its way (the drawer's Suspense fallback). */
  loadingSection: 'Loading...',
  /** The shell's skip link (docs/accessibility.md): to the drawer, the text of what the map shows. */
  skipToList: 'Go to the list of what the map shows',
  /** The polite announcements of new incidents (docs/accessibility.md), one region for the page. */
  newIncident: (name: string) => `New incident: ${name}`,
  newIncidents: (count: number) => `${count} new incidents`,
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
  /** The page's theme (not in the spec: docs/map.md "Night mode"). */
  appearance: 'Appearance',
  appearanceSystem: 'Match system',
  appearanceDay: 'Day',
  appearanceNight: 'Night',
} as const;

/** part 1 §2: browser-specific steps of the WebGL dialog. */
export const WEBGL_STEPS: Readonly<Record<'chrome' | 'edge' | 'firefox' | 'safari' | 'other', string>> = {
  chrome: "Chrome: open Settings › System, turn on 'Use graphics acceleration when available', then restart Chrome.",
  edge: "Edge: open Settings › System and performance, turn on 'Use graphics acceleration when available', then restart Edge.",
  firefox: 'Firefox: open about:config, set webgl.disabled to false, then restart Firefox.',
  safari: 'Safari: open Settings › Advanced, tick "Show features for web developers", then under Feature Flags turn on WebGL.',
  other:
    'Turn on hardware (graphics) acceleration in your browser settings, or open the dashboard in a current version of Chrome, Edge, Firefox or Safari.',
};

/** The map controls' own words (part 1 §2 names the controls without giving their labels: chosen). */
export const MAP_CONTROL_TEXT = {
  controls: 'Map controls',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  mapType: 'Map type',
  mapTypes: { roadmap: 'Roadmap', satellite: 'Satellite', hybrid: 'Hybrid', terrain: 'Terrain' },
  /** The standalone map draws one offline basemap whatever the type (docs/decisions/spec.md "Values the spec does not give"). */
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

/** The layers control (docs/map.md "Layers"; beyond the spec: Lightbar's words). */
export const MAP_LAYERS_TEXT = {
  title: 'Layers',
  /** The desktop panel's fold, with how many of its layers are on. */
  titleCount: (on: number) => `Layers (${on} on)`,
  legend: 'Legend',
  areas: 'Display Areas',
  closuresActive: 'Active closures',
  closuresScheduled: 'Scheduled closures',
  zones: 'Alerting zones',
  hazards: 'Recent hazards (24 hrs)',
  area: 'Area',
  closureStart: 'Closure start',
  closureEnd: 'Closure end',
  openClosure: 'Open closure',
  openZones: 'Open alerting zones',
  openHazards: 'Open hazard report',
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

/**
 * A number of assets: '1 asset', '43 assets' (beside the Owned and Managed toggles, read as each
 * switch's description; in the type edit's titles).
 */
export const assetCountText = (count: number): string => `${count} ${count === 1 ? 'asset' : 'assets'}`;

/** The Filters button's badge, read with the button's name: 'Filters 2 active'. */
export const filtersActiveText = (count: number): string => `${count} active`;

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
  /** A field the fleet snapshot does not carry, until the asset's page comes (docs/decisions/spec.md). */
  detailsLoading: 'Loading...',
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
  /** chosen: the question before leaving a form with changes not saved (Back, a link, a reload). */
  leaveTitle: 'Leave without saving?',
  leaveBody: 'Your changes on this page have not been saved and will be lost.',
  stay: 'Stay',
  leave: 'Leave',
} as const;

// ── areas section (part 2 §2 Areas, §5; chosen words where the spec gives none) ──────────────
export const AREAS_TEXT = {
  /** chosen */
  search: 'Search areas',
  /** chosen: the type filter's label and its 'every type' choice. */
  typeFilter: 'Type',
  allTypes: 'All Types',
  addNew: 'Add New Area',
  /** chosen */
  empty: 'No areas match.',
  none: 'No areas yet.',
  loading: 'Loading areas...',
  notFound: 'This area was not found.',
  area: 'Area',
  /** part 2 §2 detail fields. */
  name: 'Name',
  description: 'Description',
  type: 'Type',
  lat: 'Lat',
  lon: 'Lon',
  country: 'Country',
  address1: 'Address 1',
  address2: 'Address 2',
  city: 'City',
  owner: 'Owner',
  /** part 2 §2: "It has Edit and Delete Area buttons". */
  edit: 'Edit',
  deleteArea: 'Delete Area',
  /** chosen: the form's titles, its shape choice and drawing help. */
  newTitle: 'New Area',
  editTitle: 'Edit Area',
  shape: 'Map Shape',
  shapeKinds: { polygon: 'Polygon', circle: 'Circle', point: 'Point of Interest' },
  viewInstructions: 'View Instructions',
  hideInstructions: 'Hide Instructions',
  instructions: {
    polygon: 'Click the map to add corners; click the first corner or double-click to close the shape. Drag a corner to move it.',
    circle: 'Click the map for the centre, then click again for the edge. Drag the edge to resize it.',
    point: 'Click the map where the point goes. Drag it to move it.',
    keys: 'Press Enter to finish drawing, Escape to stop.',
  },
  draw: 'Draw on Map',
  redraw: 'Start Over',
  editShape: 'Edit Shape',
  finish: 'Finish Drawing',
  drawing: 'Drawing on the map...',
  /** The live readout while drawing (part 2 §9 "Polygon max 0.5 sq miles"). */
  size: 'Size',
  noShape: 'Nothing drawn yet.',
  /** chosen: a legacy area (part 2 §2: "no point or area geometry"). */
  legacyNote: 'This area has no location on the map yet. Draw one below to place it.',
  legacyDetailNote: 'This area has no location on the map yet. Edit it to place it.',
  legacy: 'No map location',
  save: 'Save',
  cancel: 'Cancel',
  /** chosen: shown under a point of interest's size. */
  pointNoSize: 'A point of interest has no size.',
} as const;

// ── alerting zones (part 2 §2 Alerting zones, §4; chosen words where the spec gives none) ─────
export const ZONES_TEXT = {
  /** part 2 §2 routes: "zones | Alerting zones" (the nav link keeps the section label 'Zones'). */
  title: 'Alerting zones',
  /** chosen: the List/Map switch (part 2 §2 "A list or map of zones"). */
  view: 'View',
  list: 'List',
  map: 'Map',
  search: 'Search zones',
  /** chosen: the filter groups (part 2 §2 "filters by zone type (hide), status (active or standby)"). */
  types: 'Zone type',
  status: 'Status',
  statusLabel: { active: 'Active', standby: 'Standby' },
  /** part 2 §2 "A show-things-on-map toggle exists". */
  showThings: 'Show things on map',
  loading: 'Loading zones...',
  none: 'No alerting zones yet.',
  empty: 'No zones match.',
  type: 'Type',
  externalId: 'External id',
  assets: 'Assets',
  noAssets: 'No assets',
  alertMessage: 'Alert message',
  mapHint: 'The shown zones are drawn on the map; hover or click one for its details.',
  noShape: 'No shape on the map',
} as const;

// ── trips, replay, R2R and hazards (part 2 §2 Trips, R2R, Hazards; chosen words where the spec gives none) ──
export const TRIPS_TEXT = {
  title: 'Trips',
  assets: 'Assets',
  start: 'Start time',
  end: 'End time',
  submit: 'Show trips',
  loadingAssets: 'Loading assets...',
  noAssets: 'No Assets Available',
  loading: 'Loading trips...',
  noRuns: 'No runs in this range',
  /** part 2 §2: the 'new trips' flag, set when a fetch returns any ids. */
  newTrips: 'New trips',
  tabRuns: 'Runs',
  tabReplay: 'Replay',
  tabLive: 'Live path',
  runStart: 'Start',
  runEnd: 'End',
  runDuration: 'Duration',
  runActive: 'Active',
  runDistance: 'Distance',
  activeYes: 'Yes',
  activeNo: 'No',
  stillGoing: 'In progress',
  pointCourse: 'Course',
  pointSpeed: 'Speed',
  pointTime: 'Time',
  pickFirst: 'Pick assets and a time range, then show their trips.',
  zoomForPoints: 'Zoom in to see the points of the runs.',
  exportGpx: 'Export GPX',
  exportGeoJson: 'Export GeoJSON',
  showAll: 'Show all runs on the map',
  /** part 2 §7 GET things/coverage on the map (the Runs tab's toggle, off by default). */
  showCoverage: 'Show coverage',
  coverageLegend: 'Roads driven in this range',
  coverageLoading: 'Loading coverage...',
  coverageNone: 'No roads driven in this range',
  coverageStored: (runs: number, first: string, last: string) => `${runs} ${runs === 1 ? 'run' : 'runs'} stored, ${first} – ${last}`,
  coverageNothingStored: 'No points stored',
  /** part 2 §2 Trips: the live path of one asset (the Live path tab). */
  liveAsset: 'Live path asset',
  livePickFirst: 'Pick an asset to draw its path from the live data, from now on.',
  liveWaiting: 'Waiting for the asset’s live position...',
  livePoints: (count: number, since: string) => `${count} ${count === 1 ? 'position' : 'positions'} since ${since}`,
  liveShow: 'Show the path on the map',
} as const;

export const REPLAY_TEXT = {
  play: 'Play',
  pause: 'Pause',
  speed: 'Replay speed',
  timeline: 'Replay time',
  follow: 'Follow',
  followAsset: 'Asset to follow',
  chart: 'Speed over time (mph)',
  nothing: 'Show trips with runs to replay them.',
} as const;

export const HAZARDS_TEXT = {
  title: 'Hazard report',
  types: 'Types',
  allTypes: 'All types',
  severities: 'Severity',
  start: 'Start time',
  end: 'End time',
  submit: 'Show hazards',
  loading: 'Loading hazards...',
  none: 'No hazards in this range',
  type: 'Type',
  total: 'Total',
  reportedAt: 'Reported',
  reportedBy: 'Reported by',
  chart: 'Hazards by type and severity',
} as const;

export const HAZARD_TYPE_LABEL = {
  crash: 'Crash',
  debris: 'Debris',
  disabled_vehicle: 'Disabled vehicle',
  flooding: 'Flooding',
  ice: 'Ice',
  animal: 'Animal',
  pothole: 'Pothole',
  other: 'Other',
} as const;

/** part 2 §2 Hazards: "Severity choices are low, medium and high". */
export const HAZARD_SEVERITY_LABEL = { low: 'Low', medium: 'Medium', high: 'High' } as const;

export const R2R_PAGE_TEXT = {
  title: 'R2R search',
  asset: 'Asset',
  runDate: 'Run date',
  alertTime: 'Alert time',
  window: (from: string, to: string) => `Window: ${from} – ${to}`,
  loading: 'Searching...',
  none: 'No R2R alerts in this window',
  alertAt: 'Alert time',
  receiver: 'Received by',
  distance: 'Distance',
  delivered: 'Delivered',
  test: 'Test',
  unknownAsset: 'Another organization’s asset',
  showOnMap: 'Show on the map',
  yes: 'Yes',
  no: 'No',
  /** The map's legend (part 2 §2 R2R: the alerting vehicle and the receivers at the alert time). */
  mapLegend: 'On the map',
  legendAlerting: 'Alerting vehicle',
  legendReceiver: 'Receiver',
} as const;

// ── accounts (part 2 §2 accounts and accounts-new, §5, §6; words the spec does not give are chosen) ──
export const ACCOUNTS_TEXT = {
  title: 'Account Management',
  tabs: {
    account: 'Account',
    user: 'Users',
    organization: 'Organization',
    thing: 'Assets',
    billing: 'Billing',
    api_key: 'API Keys',
    device_config: 'Device Configuration',
    integration: 'Integrations',
  },
  newTabs: {
    profile: 'Profile',
    users: 'Users',
    organizations: 'Organizations',
    integrations: 'Integrations',
    billing: 'Billing',
    settings: 'Settings',
  },
  placeholder: 'Coming soon.',
  profileTitle: 'Profile',
  firstName: 'First Name',
  lastName: 'Last Name',
  email: 'Email',
  phone: 'Phone',
  address1: 'Address',
  address2: 'Address Line 2',
  city: 'City',
  country: 'Country',
  save: 'Save',
  saved: 'Saved',
  changePassword: 'Change Password',
  currentPassword: 'Current Password',
  newPassword: 'New Password',
  confirmPassword: 'Confirm Password',
  passwordChanged: 'Password changed',
  usersTitle: 'Users',
  addUser: 'Add User',
  editUser: 'Edit User',
  deleteUser: 'Delete User',
  role: 'Role',
  name: 'Name',
  lastSignIn: 'Last Sign-in',
  never: 'Never',
  actions: 'Actions',
  noUsers: 'No users yet.',
  userNotFound: 'This user is not in your organization.',
  newUserMailNote: 'The new user gets an e-mail with a link to set a password.',
  organizationTitle: 'Organization',
  organizationName: 'Name',
  organizationEmail: 'Email',
  /** The legacy organization fields (part 2 §7 legacy PUT /organization/): labels the spec does not give. */
  contactName: 'Contact Name',
  phoneNumber: 'Phone Number',
  cellPhoneNumber: 'Cell Phone Number',
  timeZone: 'Time Zone',
  relations: 'Relations',
  relationGroups: { owned: 'Owned', managed: 'Managed', managers: 'Managed by', accessors: 'Accessed by' },
  organizationsTitle: 'Organizations',
  deleteOrganization: 'Delete Organization',
  deleteOrganizationTitle: (name: string) => `Delete ${name}?`,
  deleteOrganizationBody:
    'Its users are signed out and deleted and their API keys revoked; its closures, areas and events are removed, its alerting zones turned off, its WZDx feeds stop and its integrations are removed; organizations it managed or accessed lose that link. An organization that still has assets cannot be deleted: move or delete them first. This cannot be undone.',
  editOrganization: 'Edit Organization',
  organizationNotFound: 'This organization is not one you administer.',
  billingTitle: 'Billing',
  assetsTitle: 'Assets',
} as const;

/** The accounts billing tab (chosen words). */
export const BILLING_TEXT = {
  billingId: 'Billing ID',
  customerId: 'Customer ID',
  assetCount: 'Assets billed',
  type: 'Type',
  count: 'Assets',
  none: 'Not set',
  untyped: 'No type',
  /** Without billing:read (part 2 §6): the user's words, not the permission's name. */
  notAuthorized: 'Billing is not available to your role. Ask your organization administrator.',
} as const;

/** The accounts API keys tab (part 2 §2 "API keys", §3 API key; chosen words). */
export const API_KEYS_TEXT = {
  title: 'API Keys',
  create: 'Create',
  createTitle: 'Create API Key',
  description: 'Description',
  created: 'Created',
  owner: 'Owner',
  key: 'Key',
  revoke: 'Revoke',
  revokeTitle: (description: string) => `Revoke ${description}?`,
  revokeBody: 'Devices and systems using this key are refused from then on. This cannot be undone.',
  newKeyTitle: 'New API Key',
  shownOnce: 'Copy the key now: it will not be shown again.',
  copy: 'Copy',
  copied: 'Copied',
  copyFailed: 'Copy failed: select the key and copy it.',
  done: 'Done',
  none: 'No API keys yet.',
} as const;

/** The accounts device configuration tab (part 2 §2 "Device configuration", §3 Device config; chosen words). */
export const DEVICE_CONFIG_TEXT = {
  title: 'Device Configuration',
  add: 'Add Configuration',
  addTitle: 'Add Device Configuration',
  editTitle: 'Edit Device Configuration',
  deleteConfig: 'Delete Configuration',
  fileName: 'File Name',
  platform: 'Platform',
  type: 'Type',
  model: 'Model',
  warningLightPin: 'Warning Light Pin',
  indicatorPin: 'Indicator Pin',
  password: 'Password',
  passwordKeep: 'Leave empty to keep the current password.',
  heartbeatInterval: 'Heartbeat Interval (seconds)',
  locationType: 'Location Type',
  /** The edit dialog's 'Move to organization' select. */
  organization: 'Organization',
  none: 'No device configurations yet.',
} as const;

/** The accounts Integrations tab (part 2 §2 "API keys and integrations", §9 two fleet telematics providers; chosen words). */
export const INTEGRATIONS_TEXT = {
  title: 'Integrations',
  provider: 'Provider',
  status: 'Status',
  settings: 'Settings',
  created: 'Created',
  configured: 'Configured',
  notConfigured: 'Not configured',
  configure: 'Configure',
  configureTitle: (provider: string) => `Configure ${provider}`,
  testConnection: 'Test connection',
  testing: 'Testing…',
  /** The test's good answer, with the time it was checked. */
  testPassed: (checkedAt: string) => `Connection works (checked ${checkedAt})`,
  testFailed: (reason: string) => `Connection failed: ${reason}`,
  deleteIntegration: 'Delete Integration',
  deleteTitle: (provider: string) => `Delete the ${provider} integration?`,
  deleteBody: 'Its settings are removed; configure it again to reconnect. This cannot be undone.',
  secretNote: 'Credentials are stored whole and shown masked.',
} as const;

/** The closures section's WZDx feeds page (beyond the spec; chosen words). */
export const WZDX_FEEDS_TEXT = {
  title: 'WZDx feeds',
  /** The link from the closures list. */
  open: 'WZDx feeds',
  intro: "Other agencies' WZDx 4.x work zone feeds, imported as feed closures. A work zone that leaves its feed is ended.",
  /** chosen: the organization's own published feed (GET /wzdx/{organizationId}/feed), for the apps that read it. */
  publishedTitle: 'Your published feed',
  publishedNote: 'Closures published to WZDx are served here, public, for navigation apps and other agencies to read.',
  copyPublished: 'Copy the published feed address',
  add: 'Add feed',
  addTitle: 'Add WZDx feed',
  editTitle: 'Edit WZDx feed',
  url: 'Feed URL',
  interval: 'Poll interval (seconds)',
  intervalNote: 'At least 60 seconds; 300 (5 minutes) by default.',
  enabled: 'Enabled',
  organization: 'Organization',
  status: 'Status',
  lastFetched: 'Last fetched',
  never: 'Never',
  lastError: 'Last error',
  ok: 'OK',
  workZones: 'Work zones',
  skipped: (count: number) => `${count} work ${count === 1 ? 'zone' : 'zones'} left out of the last import`,
  skippedMore: (count: number) => `and ${count} more`,
  disabled: 'Disabled',
  every: (seconds: number) => `every ${seconds} s`,
  refresh: 'Refresh now',
  refreshing: 'Refreshing...',
  edit: 'Edit',
  delete: 'Delete',
  deleteTitle: (url: string) => `Delete the feed ${url}?`,
  deleteBody: 'Its feed closures are deleted with it. This cannot be undone.',
  none: 'No WZDx feeds yet.',
  actions: (url: string) => `Actions for ${url}`,
} as const;

/** The accounts thing tab (chosen words). */
export const THINGS_TAB_TEXT = {
  type: 'Type',
  subtype: 'Subtype',
  integrations: 'Integrations',
  deviceConfig: 'Device Configuration',
  /** No configuration of the organization for the asset's type. */
  noDeviceConfig: '—',
  none: 'No assets in this organization.',
  selectAll: 'Select all shown assets',
  select: (name: string) => `Select ${name}`,
  setType: 'Set type',
  setTypeTitle: (count: number) => `Set type of ${assetCountText(count)}`,
  keepSubtype: 'No subtype',
  next: 'Continue',
  confirmTitle: (count: number, type: string) => `Set the type of ${assetCountText(count)} to ${type}?`,
  confirmBody: 'Each asset is saved in turn; an asset the server refuses keeps its type.',
  progress: (done: number, count: number) => `Updating ${done} of ${count}...`,
  summary: (updated: number, failed: number) => `${updated} updated, ${failed} failed`,
  close: 'Close',
} as const;

/** The command palette, Ctrl+K / ⌘+K (chosen words; docs/accessibility.md "Keyboard"). */
export const PALETTE_TEXT = {
  title: 'Go to',
  input: 'Find an asset, incident, area, section or lat, lng',
  results: 'Matches',
  none: 'No matches',
  kind: {
    coordinate: 'Coordinates',
    asset: 'Asset',
    // part 1 §2: 'Incidents' or 'Events' by the fleet's responder mix, as the section's link reads.
    incident: 'Incident',
    event: 'Event',
    area: 'Area',
    section: 'Section',
  },
  coordinate: (lat: number, lng: number) => `${lat}, ${lng}`,
} as const;
