/**
 * The one schema for both engines (PGlite embedded, Postgres server). Migrations in
 * server/db/migrations are generated from this file by drizzle-kit (`npm run db:generate`);
 * a test fails when the two drift apart.
 *
 * Conventions: uuid keys (except roles, which the spec numbers), snake_case columns as the wire
 * shows them, timestamptz everywhere, `updated_at` on every table the client reads incrementally
 * and `deleted_at` (soft delete) where an incremental answer must report deletions.
 */
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();
const updatedAt = () => ts('updated_at').notNull().defaultNow();
/**
 * The edit counter of a record a form edits (organizations, users, assets, areas, closures): every
 * write through the API adds one, device messages do not. Its ETag; a write with an older If-Match
 * is refused with 412 (docs/security.md, lost updates).
 */
const version = () => integer('version').notNull().default(1);
const id = () =>
  uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`);

// ── organizations ────────────────────────────────────────────────────────────
export const organizationTypes = pgTable('organization_types', {
  id: id(),
  name: text('name').notNull(),
  acs: boolean('acs').notNull().default(false),
  iconUrl: text('icon_url'),
});

export const organizations = pgTable(
  'organizations',
  {
    id: id(),
    name: text('name').notNull(),
    email: text('email'),
    phoneNumber: text('phone_number'),
    contactName: text('contact_name'),
    cellPhoneNumber: text('cell_phone_number'),
    address1: text('address1'),
    address2: text('address2'),
    city: text('city'),
    state: text('state'),
    postalCode: text('postal_code'),
    countryCode: text('country_code').notNull().default('US'),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    timezone: text('timezone').notNull().default('America/Chicago'),
    organizationTypeId: uuid('organization_type_id').references(() => organizationTypes.id),
    parentId: uuid('parent_id'),
    showInfiniteTimeoutOption: boolean('show_infinite_timeout_option').notNull().default(false),
    isWzdxOrg: boolean('is_wzdx_org').notNull().default(false),
    isLargeOrg: boolean('is_large_org').notNull().default(false),
    billingId: text('billing_id'),
    maxioCustId: text('maxio_cust_id'),
    /** false: sign-in answers 401 not_safetycloud_enabled (part 1 §8). */
    dashboardEnabled: boolean('dashboard_enabled').notNull().default(true),
    /** true: the organization manages user access elsewhere (401 not_authorized_method). */
    externalAccessManagement: boolean('external_access_management').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [index('organizations_parent_idx').on(t.parentId)],
);

/** Organization-level relations: `relatedOrganizationId` manages or accesses `organizationId`'s assets. */
export const organizationRelationships = pgTable(
  'organization_relationships',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    relatedOrganizationId: uuid('related_organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    relationshipType: text('relationship_type', { enum: ['manager', 'accessor'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.relatedOrganizationId] }),
    index('organization_relationships_related_idx').on(t.relatedOrganizationId),
  ],
);

// ── users, roles, tokens ─────────────────────────────────────────────────────
export const roles = pgTable('roles', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  description: text('description').notNull().default(''),
  order: integer('order').notNull().default(0),
  permissions: jsonb('permissions')
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
});

export const users = pgTable(
  'users',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    email: text('email').notNull(),
    firstname: text('firstname').notNull(),
    lastname: text('lastname').notNull(),
    phone: text('phone'),
    address1: text('address1'),
    address2: text('address2'),
    city: text('city'),
    state: text('state'),
    postalCode: text('postal_code'),
    countryCode: text('country_code'),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id),
    passwordHash: text('password_hash'),
    passwordChangedAt: ts('password_changed_at'),
    suspended: boolean('suspended').notNull().default(false),
    /**
     * Set when sign-in failures lock a pair of this e-mail and a client address (sign_in_throttles);
     * POST /unlock_account mails a fresh link only then. Cleared by the unlock link or a reset.
     */
    lockedAt: ts('locked_at'),
    unlockTokenHash: text('unlock_token_hash'),
    resetTokenHash: text('reset_token_hash'),
    resetTokenExpiresAt: ts('reset_token_expires_at'),
    /** Reset and unlock mails sent in the window that began at recovery_mail_window_at (mail flood limit). */
    recoveryMailCount: integer('recovery_mail_count').notNull().default(0),
    recoveryMailWindowAt: ts('recovery_mail_window_at'),
    signInCount: integer('sign_in_count').notNull().default(0),
    lastSignInAt: ts('last_sign_in_at'),
    lastActivityAt: ts('last_activity_at'),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [
    uniqueIndex('users_email_idx')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.deletedAt} is null`),
    index('users_organization_idx').on(t.organizationId),
  ],
);

export const passwordHistory = pgTable(
  'password_history',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    passwordHash: text('password_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('password_history_user_idx').on(t.userId, t.createdAt)],
);

/** Opaque tokens, stored only as SHA-256 hashes. */
export const tokens = pgTable(
  'tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    /**
     * Every pair issued from one sign-in by refresh rotation shares a family: replaying a rotated
     * refresh token revokes the whole family (RFC 9700 §4.14, refresh token reuse detection).
     */
    familyId: uuid('family_id').notNull().defaultRandom(),
    accessHash: text('access_hash').notNull(),
    refreshHash: text('refresh_hash').notNull(),
    accessExpiresAt: ts('access_expires_at').notNull(),
    refreshExpiresAt: ts('refresh_expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('tokens_access_idx').on(t.accessHash),
    uniqueIndex('tokens_refresh_idx').on(t.refreshHash),
    index('tokens_family_idx').on(t.familyId),
  ],
);

/**
 * Failed sign-ins per e-mail (lower-cased, whether or not an account has it) and client address:
 * past the limit that pair waits a short, growing delay (OWASP Authentication Cheat Sheet,
 * "Account Lockout"), so a stranger elsewhere cannot lock the owner out and an unknown e-mail
 * answers like a known one.
 */
export const signInThrottles = pgTable(
  'sign_in_throttles',
  {
    emailKey: text('email_key').notNull(),
    address: text('address').notNull(),
    /** Attempts counted since the last success (or since they were forgotten). */
    failures: integer('failures').notNull().default(0),
    /** The pair waits until then; attempts before it are refused unchecked. */
    blockedUntil: ts('blocked_until'),
    /** Attempts refused during the current wait: a success that began before them does not stand. */
    refused: integer('refused').notNull().default(0),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.emailKey, t.address] })],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    description: text('description').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The first characters of the key, shown so a user can tell keys apart. */
    tokenPrefix: text('token_prefix').notNull(),
    createdAt: createdAt(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_token_idx').on(t.tokenHash), index('api_keys_user_idx').on(t.userId)],
);

export const mailOutbox = pgTable('mail_outbox', {
  id: id(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  createdAt: createdAt(),
  sentAt: ts('sent_at'),
  error: text('error'),
});

// ── things (assets) ──────────────────────────────────────────────────────────
export const thingTypes = pgTable('thing_types', {
  id: id(),
  name: text('name').notNull().unique(),
  displayName: text('display_name'),
  isEmergency: boolean('is_emergency').notNull().default(false),
});

export const thingSubtypes = pgTable('thing_subtypes', {
  id: id(),
  thingTypeId: uuid('thing_type_id')
    .notNull()
    .references(() => thingTypes.id),
  name: text('name').notNull(),
  displayName: text('display_name'),
});

export const things = pgTable(
  'things',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    haasId: text('haas_id').notNull(),
    nickname: text('nickname'),
    thingTypeId: uuid('thing_type_id')
      .notNull()
      .references(() => thingTypes.id),
    thingSubtypeId: uuid('thing_subtype_id').references(() => thingSubtypes.id),
    vinNumber: text('vin_number'),
    licensePlateNumber: text('license_plate_number'),
    registryNumber: text('registry_number'),
    externalId: text('external_id'),
    deviceType: text('device_type').notNull().default('ha5'),
    inService: boolean('in_service').notNull().default(true),
    isPubliclyAlerting: boolean('is_publicly_alerting').notNull().default(true),
    /** When alerting was switched off: it turns back on ALERTING_OFF_RESET_MS later. */
    alertingOffAt: ts('alerting_off_at'),
    isResponder: boolean('is_responder').notNull().default(true),
    isR2rEnabled: boolean('is_r2r_enabled').notNull().default(false),
    isTestModeOn: boolean('is_test_mode_on').notNull().default(false),
    isAllowedForTestMode: boolean('is_allowed_for_test_mode').notNull().default(false),
    isAllowedForClosures: boolean('is_allowed_for_closures').notNull().default(false),
    lightIntensity: smallint('light_intensity'),
    feedSubscriptions: jsonb('feed_subscriptions')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    // live state, written by ingest
    lightsOn: boolean('lights_on').notNull().default(false),
    enroute: boolean('enroute').notNull().default(false),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    accuracy: doublePrecision('accuracy'),
    course: doublePrecision('course'),
    speed: doublePrecision('speed').notNull().default(0),
    street: text('street'),
    stillSince: ts('still_since'),
    stationId: uuid('station_id'),
    locationId: uuid('location_id'),
    heartbeatAt: ts('heartbeat_at'),
    runId: uuid('run_id'),
    runStartTime: ts('run_start_time'),
    runPointsCount: integer('run_points_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [index('things_organization_updated_idx').on(t.organizationId, t.updatedAt), uniqueIndex('things_haas_id_idx').on(t.haasId)],
);

export const thingExternalIdentifiers = pgTable(
  'thing_external_identifiers',
  {
    id: id(),
    thingId: uuid('thing_id')
      .notNull()
      .references(() => things.id, { onDelete: 'cascade' }),
    identifierId: text('identifier_id').notNull(),
    systemName: text('system_name').notNull(),
  },
  (t) => [uniqueIndex('thing_external_identifiers_idx').on(t.thingId, t.systemName)],
);

/** Asset-level relations (PUT /things/{id}/associations). */
export const thingRelationships = pgTable(
  'thing_relationships',
  {
    thingId: uuid('thing_id')
      .notNull()
      .references(() => things.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    relationshipType: text('relationship_type', { enum: ['manager', 'accessor'] }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.thingId, t.organizationId] }), index('thing_relationships_org_idx').on(t.organizationId)],
);

export const integrationConfigurations = pgTable('integration_configurations', {
  id: id(),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id),
  provider: text('provider').notNull(),
  settings: jsonb('settings')
    .$type<Record<string, string>>()
    .notNull()
    .default(sql`'{}'::jsonb`),
  createdAt: createdAt(),
});

export const deviceConfigs = pgTable('device_configs', {
  id: id(),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id),
  thingTypeId: uuid('thing_type_id').references(() => thingTypes.id),
  userId: uuid('user_id').references(() => users.id),
  model: text('model').notNull(),
  platform: text('platform').notNull(),
  fileName: text('file_name').notNull(),
  password: text('password'),
  heartbeatInterval: integer('heartbeat_interval'),
  warningLightPin: integer('warning_light_pin').notNull(),
  indicatorPin: integer('indicator_pin'),
  locationType: text('location_type'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

// ── runs and points (trips) ──────────────────────────────────────────────────
export const runs = pgTable(
  'runs',
  {
    id: id(),
    thingId: uuid('thing_id')
      .notNull()
      .references(() => things.id, { onDelete: 'cascade' }),
    runStart: ts('run_start').notNull(),
    runEnd: ts('run_end'),
    isActive: boolean('is_active').notNull().default(true),
  },
  (t) => [index('runs_thing_start_idx').on(t.thingId, t.runStart)],
);

export const points = pgTable(
  'points',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    thingId: uuid('thing_id').notNull(),
    runId: uuid('run_id'),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
    course: doublePrecision('course'),
    speed: doublePrecision('speed'),
    accuracy: doublePrecision('accuracy'),
    timestamp: ts('timestamp').notNull(),
  },
  (t) => [index('points_thing_time_idx').on(t.thingId, t.timestamp), index('points_run_idx').on(t.runId)],
);

// ── locations (events) ───────────────────────────────────────────────────────
export const locations = pgTable(
  'locations',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    externalId: text('external_id'),
    displayName: text('display_name'),
    isActive: boolean('is_active').notNull().default(true),
    isGeoMarker: boolean('is_geo_marker').notNull().default(false),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
    markerLat: doublePrecision('marker_lat'),
    markerLng: doublePrecision('marker_lng'),
    street: text('street'),
    roadwayHeading: doublePrecision('roadway_heading'),
    startTime: ts('start_time').notNull(),
    endTime: ts('end_time'),
    alertMessage: text('alert_message'),
    wzdxId: text('wzdx_id'),
    features: jsonb('features')
      .$type<unknown[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** The first acknowledgement (POST /locations/{id}/acknowledge): who took the incident and when; it stays. */
    acknowledgedAt: ts('acknowledged_at'),
    acknowledgedBy: uuid('acknowledged_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [index('locations_organization_updated_idx').on(t.organizationId, t.updatedAt)],
);

/** An incident's timestamped notes (POST /locations/{id}/notes), shown to everyone who sees the incident. */
export const locationNotes = pgTable(
  'location_notes',
  {
    id: id(),
    locationId: uuid('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    text: text('text').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('location_notes_location_created_idx').on(t.locationId, t.createdAt)],
);

export const locationThings = pgTable(
  'location_things',
  {
    locationId: uuid('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    thingId: uuid('thing_id')
      .notNull()
      .references(() => things.id, { onDelete: 'cascade' }),
    startTime: ts('start_time').notNull(),
    endTime: ts('end_time'),
    isActive: boolean('is_active').notNull().default(true),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.thingId] }), index('location_things_thing_idx').on(t.thingId)],
);

// ── areas ────────────────────────────────────────────────────────────────────
export const areaTypes = pgTable('ez_types', {
  id: id(),
  dbName: text('db_name').notNull().unique(),
  displayName: text('display_name').notNull(),
  isStationView: boolean('is_station_view').notNull().default(false),
  isAvType: boolean('is_av_type').notNull().default(false),
});

export const areas = pgTable(
  'areas',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    thingId: uuid('thing_id'),
    name: text('name').notNull(),
    desc: text('desc'),
    ezTypeId: uuid('ez_type_id')
      .notNull()
      .references(() => areaTypes.id),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    /** miles (part 2 §3) */
    radiusDist: doublePrecision('radius_dist'),
    isActive: boolean('is_active').notNull().default(true),
    /** GeoJSON Polygon */
    areaGeom: jsonb('area_geom'),
    /** {lat, lon} */
    pointGeom: jsonb('point_geom'),
    address1: text('address1'),
    address2: text('address2'),
    city: text('city'),
    state: text('state'),
    postalCode: text('postal_code'),
    countryCode: text('country_code'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [index('areas_organization_idx').on(t.organizationId)],
);

// ── closures ─────────────────────────────────────────────────────────────────
export const closures = pgTable(
  'closures',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    closureType: text('closure_type', { enum: ['manual', 'automated', 'feed'] }).notNull(),
    isActive: boolean('is_active').notNull().default(false),
    description: text('description').notNull(),
    alertMessage: text('alert_message'),
    direction: text('direction'),
    streetStart: text('street_start'),
    streetEnd: text('street_end'),
    /** The WZDx id; unique across the feed ('violates unique' on a duplicate). */
    externalId: text('external_id'),
    geocodedRoute: jsonb('geocoded_route'),
    calculatedRoute: jsonb('calculated_route'),
    userRoute: jsonb('user_route'),
    impactedLanes: jsonb('impacted_lanes')
      .$type<number[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    thingId: uuid('thing_id').references(() => things.id),
    lastStartTime: ts('last_start_time'),
    startTime: ts('start_time'),
    endTime: ts('end_time'),
    isWzdxCompliant: boolean('is_wzdx_compliant').notNull().default(false),
    isPublishOn: boolean('is_publish_on').notNull().default(false),
    isDashboardManaged: boolean('is_dashboard_managed').notNull().default(true),
    locationMethod: text('location_method'),
    vehicleImpact: text('vehicle_impact'),
    groupId: text('group_id'),
    /** The subscription a feed closure was imported from (server/jobs/wzdx-import.ts); null for the others. */
    wzdxFeedId: uuid('wzdx_feed_id').references(() => wzdxFeeds.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [
    index('closures_organization_updated_idx').on(t.organizationId, t.updatedAt),
    // Our own WZDx ids are unique among live closures; an imported work zone's id is another
    // agency's, unique only within the feed it came from.
    uniqueIndex('closures_external_id_idx')
      .on(t.externalId)
      .where(sql`${t.deletedAt} is null and ${t.wzdxFeedId} is null`),
    uniqueIndex('closures_feed_external_id_idx')
      .on(t.wzdxFeedId, t.externalId)
      .where(sql`${t.deletedAt} is null and ${t.wzdxFeedId} is not null`),
  ],
);

/**
 * WZDx feed subscriptions (beyond the spec): outside WZDx 4.x feeds an organization imports as
 * feed closures. The import job (server/jobs/wzdx-import.ts) records each fetch's outcome here.
 */
export const wzdxFeeds = pgTable(
  'wzdx_feeds',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    url: text('url').notNull(),
    pollIntervalS: integer('poll_interval_s').notNull().default(300),
    enabled: boolean('enabled').notNull().default(true),
    lastFetchedAt: ts('last_fetched_at'),
    /** The last fetch's failure in plain words; null after a good import. */
    lastError: text('last_error'),
    /** Work zones the last good import carried. */
    importedCount: integer('imported_count').notNull().default(0),
    /** Work zones the last good import left out, each with its reason (the first WZDX_SKIPPED_SHOWN of them). */
    skipped: jsonb('skipped')
      .$type<{ id: string; reason: string }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** How many work zones the last good import left out. */
    skippedCount: integer('skipped_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('wzdx_feeds_organization_idx').on(t.organizationId)],
);

// ── alerting zones ───────────────────────────────────────────────────────────
export const alertingZones = pgTable(
  'alerting_zones',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    externalId: text('external_id'),
    typeName: text('alerting_zone_type_name').notNull(),
    alertMessage: text('alert_message'),
    description: text('description'),
    features: jsonb('features')
      .$type<unknown[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    isActive: boolean('is_active').notNull().default(false),
    defaultExpiry: integer('default_expiry'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('alerting_zones_organization_idx').on(t.organizationId)],
);

export const alertingZoneThings = pgTable(
  'alerting_zone_things',
  {
    zoneId: uuid('zone_id')
      .notNull()
      .references(() => alertingZones.id, { onDelete: 'cascade' }),
    thingId: uuid('thing_id')
      .notNull()
      .references(() => things.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.zoneId, t.thingId] })],
);

// ── hazards and R2R ──────────────────────────────────────────────────────────
export const hazards = pgTable(
  'hazards',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    thingId: uuid('thing_id').references(() => things.id),
    hazardType: text('hazard_type').notNull(),
    severity: text('severity', { enum: ['low', 'medium', 'high'] }).notNull(),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
    reportedAt: ts('reported_at').notNull(),
  },
  (t) => [index('hazards_organization_time_idx').on(t.organizationId, t.reportedAt)],
);

export const r2rAlerts = pgTable(
  'r2r_alerts',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    thingId: uuid('thing_id')
      .notNull()
      .references(() => things.id),
    otherThingId: uuid('other_thing_id').references(() => things.id),
    isTest: boolean('is_test').notNull().default(false),
    delivered: boolean('delivered').notNull().default(true),
    distanceM: doublePrecision('distance_m'),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    alertTime: ts('alert_time').notNull(),
  },
  (t) => [index('r2r_alerts_thing_time_idx').on(t.thingId, t.alertTime)],
);

// ── data: exports, monthly reports, jobs ─────────────────────────────────────
export const exports = pgTable(
  'exports',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id),
    exportType: text('export_type', { enum: ['incident', 'point', 'thing', 'closure'] }).notNull(),
    title: text('title').notNull(),
    exportStartTime: ts('export_start_time'),
    exportEndTime: ts('export_end_time'),
    useUtc: boolean('use_utc').notNull().default(false),
    options: jsonb('options')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    requestedAt: createdAt(),
    completedAt: ts('completed_at'),
    fileId: text('file_id'),
    status: text('status', { enum: ['requested', 'in_progress', 'completed', 'errored'] })
      .notNull()
      .default('requested'),
    error: text('error'),
    /** Progress of a running export (part 2 §4): data rows written so far, of how many (null: not counted yet), since when. */
    rowsWritten: integer('rows_written').notNull().default(0),
    rowsTotal: integer('rows_total'),
    startedAt: ts('started_at'),
    deletedAt: ts('deleted_at'),
  },
  (t) => [index('exports_organization_idx').on(t.organizationId, t.requestedAt)],
);

export const monthlyReports = pgTable(
  'monthly_reports',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    year: integer('year').notNull(),
    month: integer('month').notNull(),
    fileId: text('file_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('monthly_reports_org_month_idx').on(t.organizationId, t.year, t.month)],
);

export const jobs = pgTable(
  'jobs',
  {
    id: id(),
    kind: text('kind').notNull(),
    payload: jsonb('payload')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    runAt: ts('run_at').notNull().defaultNow(),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lockedAt: ts('locked_at'),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [index('jobs_queue_idx').on(t.status, t.runAt)],
);
