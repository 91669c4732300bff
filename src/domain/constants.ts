/**
 * Every figure of §9 of both spec parts, named once. Where the spec gives no value the chosen
 * one is marked "chosen" and listed in docs/decisions/spec.md.
 */

// ── time units ────────────────────────────────────────────────────────────────
export const SECOND_MS = 1_000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

// ── product ───────────────────────────────────────────────────────────────────
/** The spec's "Safety Cloud Dashboard" is written as our own name. */
export const PRODUCT_NAME = 'Lightbar';
/** The support address shown in the Support dialog, the offline notice and 'Please contact' lines (chosen). */
export const SUPPORT_EMAIL = 'support@lightbar.example';
/** chosen */
export const SUPPORT_PHONE = '+1 (555) 010-0199';

// ── asset types (part 1 §1, part 2 §9) ────────────────────────────────────────
export const ASSET_TYPES = ['police', 'fire', 'ambulance', 'arrow_board', 'maintenance', 'tow', 'waste'] as const;
export type AssetType = (typeof ASSET_TYPES)[number];
export const ASSET_LABEL_SINGULAR = 'Asset';
export const ASSET_LABEL_PLURAL = 'Assets';

// ── events (part 1 §9) ───────────────────────────────────────────────────────
export const EVENTS_KEPT = 500;
/** part 1 §9: "maximum stored locations" value not shown; chosen equal to the events kept. */
export const MAX_STORED_LOCATIONS = EVENTS_KEPT;
export const EVENT_HISTORY_DAYS = 7;
export const EVENT_HISTORY_MS = EVENT_HISTORY_DAYS * DAY_MS;

// ── live updates (part 1 §4, §9) ─────────────────────────────────────────────
export const POLL_INTERVAL_MS = 15_000;
export const SOCKET_BATCH_MS = 1_000;
export const SOCKET_RECONNECT_ATTEMPTS = 10;
export const SOCKET_RECONNECT_BASE_MS = 1_000;
export const SOCKET_RECONNECT_MAX_MS = 10_000;
/** Server ping cadence (ActionCable); a socket with no ping for SOCKET_DEAD_AFTER_MS is dead. */
export const SOCKET_PING_INTERVAL_MS = 3_000;
export const SOCKET_DEAD_AFTER_MS = 10_000;
/** The data-feed name of the socket's protocol pair. */
export const SOCKET_PROTOCOL = 'actioncable-v1-json';
export const EVENTS_CHANNEL = 'EventsChannel';
/**
 * part 1 §4: "The position is accepted when accuracy is within the minimum (a looser minimum
 * applies at a station)". Values not given; chosen: 50 m on the road, 150 m at a station
 * (station buildings degrade GPS).
 */
export const POINT_ACCURACY_MIN_M = 50;
export const POINT_ACCURACY_STATION_MIN_M = 150;

// ── session (part 1 §4, §9) ──────────────────────────────────────────────────
export const INACTIVITY_TIMEOUT_MS = 14_400_000;
export const INACTIVITY_PROMPT_MS = 10_000;
export const TOKEN_REFRESH_LEAD_MS = 10_000;
export const POST_RESET_REDIRECT_MS = 2_000;
/** OAuth-style return: tokens longer than this are accepted too (part 1 §2). */
export const OAUTH_LONG_TOKEN_LENGTH = 400;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const CACHE_TTL_MS = 3_600_000;
export const TRIPS_CACHE_TTL_MS = 300_000;
export const ALL_TRIPS_CACHE_TTL_MS = 60_000;
export const VERSION_POLL_MS = 600_000;
export const VERSION_FIRST_CHECK_MS = 10_000;
export const QUERY_REFRESH_MS = 30 * MINUTE_MS;

// ── status windows (part 1 §4, §9; part 2 §4, §9) ────────────────────────────
/** part 1 §9 "stale 30 s (TO_STALE constant)". */
export const STALE_AFTER_MS = 30 * SECOND_MS;
/** Heartbeat age under which an enroute asset is active. */
export const ACTIVE_WINDOW_MS = 2 * HOUR_MS;
/** Heartbeat age under which a quiet asset is standby or stationary; at or past it, pending. */
export const STANDBY_WINDOW_MS = 8 * HOUR_MS;
/** Heartbeat age under which an asset is pending; at or past it, offline (96 h = 4 days). */
export const PENDING_WINDOW_MS = 96 * HOUR_MS;
/** A quiet asset that has not moved for this long is stationary (the server then sets its street). */
export const STATIONARY_AFTER_MS = 10 * MINUTE_MS;
/** part 1 §4, part 2 §4: alerting switched off turns back on after 60 minutes. */
export const ALERTING_OFF_RESET_MS = 60 * MINUTE_MS;

// ── field limits (part 1 §9, part 2 §9) ──────────────────────────────────────
export const NICKNAME_MAX = 50;
export const PLATE_MAX = 50;
export const REGISTRY_MAX = 50;
export const VEHICLE_ID_MAX = 50;
export const AREA_NAME_MAX = 100;
export const AREA_DESCRIPTION_MAX = 100;
export const CLOSURE_DESCRIPTION_MAX = 100;
export const CLOSURE_ALERT_MESSAGE_MAX = 40;
export const WZDX_ID_MAX = 100;
export const COUNTRY_CODE_MAX = 2;
export const MAX_INTEGRATIONS = 2;
/** Text areas warn within this many characters of their limit (part 1 §5). */
export const TEXTAREA_WARN_WITHIN = 5;
/** Select lists over this many options are virtualized. */
export const VIRTUALIZE_SELECT_OVER = 20;

// ── password (part 1 §5, §9; part 2 §5) ──────────────────────────────────────
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_SPECIAL_CHARACTERS = '*@!#%&()^~{}';
export const PASSWORD_EXPIRY_DAYS = 90;
export const PASSWORD_HISTORY = 10;
/** Failed sign-ins before the account locks. */
export const MAX_FAILED_SIGN_INS = 5;

// ── display (part 1 §9) ──────────────────────────────────────────────────────
export const DISPLAY_NAME_SHORTEN_OVER = 12;
export const DISPLAY_NAME_KEEP = 4;
export const OOS_SUFFIX = ' | OOS';
export const LONG_TEXT_TRUNCATE = 50;
export const MOBILE_ORG_NAME_MAX = 70;
export const ORG_SEARCH_SHOWN_OVER = 5;
export const OWNED_ONLY_SUFFIX = ' (ONLY)';

// ── rows and breakpoints (part 1 §9, part 2 §9) ──────────────────────────────
export const ASSET_ROW_HEIGHT = 65;
export const ASSET_ROW_HEIGHT_OOS = 90;
export const EVENT_ROW_HEIGHT = 80;
export const EVENT_ROW_ACTIVE_EXTRA = 10;
export const AREA_ROW_HEIGHT = 75;
export const CLOSURE_ROW_HEIGHT = 70;
export const CLOSURE_ROW_HEIGHT_TALL = 90;
export const SIDE_NAV_WIDTH = 160;
export const DRAWER_WIDTH = 400;
export const BOTTOM_NAV_HEIGHT = 70;
export const BREAKPOINTS = { xs: 500, sm: 768, md: 769, lg: 1025, xl: 1281, xxl: 1441 } as const;
/**
 * part 1 §2, part 2 §6: the dashboard on a phone (the mobile layout, at BREAKPOINTS.sm and below)
 * says so on every call with this header, and the server checks closure writes against the
 * mobile closure permissions then.
 */
export const MOBILE_CLIENT_HEADER = 'x-lightbar-client';
export const MOBILE_CLIENT_VALUE = 'mobile';

// ── debounces and feedback (part 1 §9, part 2 §9) ────────────────────────────
export const EVENTS_SEARCH_DEBOUNCE_MS = 350;
/** chosen: 'Today' and '24 hrs' age events out without a change of the cache; the events panel and the map's markers read again this often. */
export const EVENTS_AGE_REFRESH_MS = 60_000;
export const LIST_SEARCH_DEBOUNCE_MS = 250;
export const MEDIA_QUERY_DEBOUNCE_MS = 300;
export const COPY_FEEDBACK_MARKER_MS = 1_000;
export const COPY_FEEDBACK_MENU_MS = 2_000;
export const R2R_RESULT_CLEAR_MS = 10_000;
export const LED_RESULT_CLEAR_MS = 4_000;

// ── map (part 1 §9, part 2 §9) ───────────────────────────────────────────────
export const ICON_SMALL_BELOW_ZOOM = 11;
export const ICON_MEDIUM_BELOW_ZOOM = 13;
export const FIT_BOUNDS_PADDING = 50;
export const FIT_BOUNDS_PADDING_SHELL = 75;
export const FIT_BOUNDS_MAX_ZOOM = 17;
export const CENTERING_MIN_ZOOM = 16;
export const FOUND_LOCATION_ZOOM = 17;
export const ADD_ZOOM_AREAS_CLOSURES = 15.5;
export const ADD_ZOOM_TRIP_POINTS = 17;
export const ADD_ZOOM_DEFAULT = 16.25;
/** part 1 §9: default map zoom not shown; chosen. */
export const DEFAULT_MAP_ZOOM = 10;
export const MAP_TYPES = ['roadmap', 'satellite', 'hybrid', 'terrain'] as const;
export type MapType = (typeof MAP_TYPES)[number];
export const GEOLOCATION_OPTIONS = { enableHighAccuracy: true, timeout: 10_000, maximumAge: 30_000 } as const;
export const COORDINATE_DECIMALS = 7;
export const MAP_MENU_COORDINATE_DECIMALS = 5;
export const DRAGGED_MARKER_ACCURACY_M = 100;
export const STATION_RADIUS_DEFAULT_M = 100;

// ── paging (part 1 §7, part 2 §9) ────────────────────────────────────────────
export const THINGS_PAGE_SIZE = 500;
/**
 * The largest page GET /organization/things answers, and the page the live worker asks for: the
 * initial load of 100,000 assets in 20 pages, not 200, each page's fixed cost (the count, the
 * validator, the offset) paid 20 times (docs/decisions/spec.md).
 */
export const THINGS_PAGE_MAX = 5_000;
/** Pages of the initial load the live worker asks for at once after the first (docs/decisions/spec.md). */
export const THINGS_PAGES_IN_FLIGHT = 2;

// ── areas and geometry (part 2 §9) ───────────────────────────────────────────
/** part 2 §3: radius_dist miles × 1609 (the spec's conversion, kept for the wire). */
export const METRES_PER_MILE = 1609;
/** An international mile: distances and speeds shown to people. */
export const METRES_PER_MILE_EXACT = 1609.344;
export const POLYGON_MAX_SQ_MILES = 0.5;
export const SQ_METRES_PER_SQ_MILE = 2_589_988.11;
export const EXCLUSION_MIN_POINTS = 3;
export const USER_ROUTE_MIN_POINTS = 2;
export const COMPASS_POINTS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;
export type CompassPoint = (typeof COMPASS_POINTS)[number];

// ── closures (part 2 §4, §5, §9) ─────────────────────────────────────────────
export const CLOSURE_MAX_AHEAD_MONTHS = 3;
export const CLOSURE_QUICK_ACTIVATE_MONTHS = 1;
export const IMPACTED_LANES_MIN = 1;
export const IMPACTED_LANES_MAX = 9;
export const CLOSURE_DIRECTIONS = ['N', 'E', 'S', 'W'] as const;
export type ClosureDirection = (typeof CLOSURE_DIRECTIONS)[number];

// ── trips, reports, exports, R2R, hazards (part 2 §5, §9) ────────────────────
export const R2R_WINDOW_MS = 15 * MINUTE_MS;
export const REPORT_ASSETS_MIN = 1;
export const REPORT_ASSETS_MAX = 5;
export const TRIP_RANGE_MAX_MS = 24 * HOUR_MS;
export const HAZARD_RANGE_MAX_MS = 24 * HOUR_MS;
export const EXPORT_RANGE_MAX_DAYS = 31;
export const EXPORT_RANGE_MAX_MS = EXPORT_RANGE_MAX_DAYS * DAY_MS;
export const MONTHLY_REPORT_MIN_YEAR = 2014;
export const HAZARD_SEVERITIES = ['low', 'medium', 'high'] as const;
export type HazardSeverity = (typeof HAZARD_SEVERITIES)[number];
/** part 2 §9: "Hazard type list: not shown"; chosen. */
export const HAZARD_TYPES = ['crash', 'debris', 'disabled_vehicle', 'flooding', 'ice', 'animal', 'pothole', 'other'] as const;
export type HazardType = (typeof HAZARD_TYPES)[number];
/** part 1 §9, part 2 §9: "Light intensity options: not shown"; chosen as percent of full output. */
export const LIGHT_INTENSITY_OPTIONS = [25, 50, 75, 100] as const;
export type LightIntensity = (typeof LIGHT_INTENSITY_OPTIONS)[number];
/** part 2 §9: "two fleet telematics providers"; names chosen. */
export const INTEGRATION_PROVIDERS = ['samsara', 'geotab'] as const;
export type IntegrationProvider = (typeof INTEGRATION_PROVIDERS)[number];
/** R2R requires one of these hardware types (part 1 §5). */
export const R2R_DEVICE_TYPES = ['ha5', 'ha7'] as const;
/** Asset types whose hardware supports R2R (chosen: the emergency responders). */
export const R2R_CAPABLE_TYPES: readonly AssetType[] = ['police', 'fire', 'ambulance'];
/** API keys per user (part 2 §8 "API Key limit"; value chosen). */
export const API_KEY_LIMIT = 5;
/** Device configuration (part 2 §3): GPIO pin numbers of the light controllers are 0 to this (chosen). */
export const DEVICE_PIN_MAX = 255;
/** Device configuration: the longest heartbeat interval, a day in seconds (chosen). */
export const HEARTBEAT_INTERVAL_MAX_S = 86_400;
/** An API key's description: required, at most this many characters (chosen, the size of a name). */
export const API_KEY_DESCRIPTION_MAX = 100;
/** chosen: the distance within which two alerting R2R responders alert each other. */
export const R2R_ALERT_DISTANCE_M = 500;
/** Incidents: a vehicle stopped with lights on for longer than this opens or joins a location. */
export const INCIDENT_STOP_MS = 30 * SECOND_MS;

// ── map controls (part 1 §2; chosen) ─────────────────────────────────────────
/** The zoom control's range: deck.gl's MapView default (0..20) and one level per click. */
export const MAP_MIN_ZOOM = 0;
export const MAP_MAX_ZOOM = 20;
export const MAP_ZOOM_STEP = 1;
