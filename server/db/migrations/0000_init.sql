CREATE TABLE "alerting_zone_things" (
	"zone_id" uuid NOT NULL,
	"thing_id" uuid NOT NULL,
	CONSTRAINT "alerting_zone_things_zone_id_thing_id_pk" PRIMARY KEY("zone_id","thing_id")
);
--> statement-breakpoint
CREATE TABLE "alerting_zones" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"external_id" text,
	"alerting_zone_type_name" text NOT NULL,
	"alert_message" text,
	"description" text,
	"features" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"default_expiry" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"description" text NOT NULL,
	"token_hash" text NOT NULL,
	"token_prefix" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ez_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"db_name" text NOT NULL,
	"display_name" text NOT NULL,
	"is_station_view" boolean DEFAULT false NOT NULL,
	"is_av_type" boolean DEFAULT false NOT NULL,
	CONSTRAINT "ez_types_db_name_unique" UNIQUE("db_name")
);
--> statement-breakpoint
CREATE TABLE "areas" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"thing_id" uuid,
	"name" text NOT NULL,
	"desc" text,
	"ez_type_id" uuid NOT NULL,
	"lat" double precision,
	"lng" double precision,
	"radius_dist" double precision,
	"is_active" boolean DEFAULT true NOT NULL,
	"area_geom" jsonb,
	"point_geom" jsonb,
	"address1" text,
	"address2" text,
	"city" text,
	"state" text,
	"postal_code" text,
	"country_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "closures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"closure_type" text NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"description" text NOT NULL,
	"alert_message" text,
	"direction" text,
	"street_start" text,
	"street_end" text,
	"external_id" text,
	"geocoded_route" jsonb,
	"calculated_route" jsonb,
	"user_route" jsonb,
	"impacted_lanes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"thing_id" uuid,
	"last_start_time" timestamp with time zone,
	"start_time" timestamp with time zone,
	"end_time" timestamp with time zone,
	"is_wzdx_compliant" boolean DEFAULT false NOT NULL,
	"is_publish_on" boolean DEFAULT false NOT NULL,
	"is_dashboard_managed" boolean DEFAULT true NOT NULL,
	"location_method" text,
	"vehicle_impact" text,
	"group_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "device_configs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"thing_type_id" uuid,
	"user_id" uuid,
	"model" text NOT NULL,
	"platform" text NOT NULL,
	"file_name" text NOT NULL,
	"password" text,
	"heartbeat_interval" integer,
	"warning_light_pin" integer NOT NULL,
	"indicator_pin" integer,
	"location_type" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"requested_by" uuid NOT NULL,
	"export_type" text NOT NULL,
	"title" text NOT NULL,
	"export_start_time" timestamp with time zone,
	"export_end_time" timestamp with time zone,
	"use_utc" boolean DEFAULT false NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"file_id" text,
	"status" text DEFAULT 'requested' NOT NULL,
	"error" text,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "hazards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"thing_id" uuid,
	"hazard_type" text NOT NULL,
	"severity" text NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"reported_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_configurations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_at" timestamp with time zone,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "location_things" (
	"location_id" uuid NOT NULL,
	"thing_id" uuid NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"end_time" timestamp with time zone,
	"is_active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "location_things_location_id_thing_id_pk" PRIMARY KEY("location_id","thing_id")
);
--> statement-breakpoint
CREATE TABLE "locations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"external_id" text,
	"display_name" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_geo_marker" boolean DEFAULT false NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"marker_lat" double precision,
	"marker_lng" double precision,
	"street" text,
	"roadway_heading" double precision,
	"start_time" timestamp with time zone NOT NULL,
	"end_time" timestamp with time zone,
	"alert_message" text,
	"wzdx_id" text,
	"features" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "monthly_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"year" integer NOT NULL,
	"month" integer NOT NULL,
	"file_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organization_relationships" (
	"organization_id" uuid NOT NULL,
	"related_organization_id" uuid NOT NULL,
	"relationship_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organization_relationships_organization_id_related_organization_id_pk" PRIMARY KEY("organization_id","related_organization_id")
);
--> statement-breakpoint
CREATE TABLE "organization_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"acs" boolean DEFAULT false NOT NULL,
	"icon_url" text
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"phone_number" text,
	"contact_name" text,
	"cell_phone_number" text,
	"address1" text,
	"address2" text,
	"city" text,
	"state" text,
	"postal_code" text,
	"country_code" text DEFAULT 'US' NOT NULL,
	"lat" double precision,
	"lng" double precision,
	"timezone" text DEFAULT 'America/Chicago' NOT NULL,
	"organization_type_id" uuid,
	"parent_id" uuid,
	"show_infinite_timeout_option" boolean DEFAULT false NOT NULL,
	"is_wzdx_org" boolean DEFAULT false NOT NULL,
	"is_large_org" boolean DEFAULT false NOT NULL,
	"billing_id" text,
	"maxio_cust_id" text,
	"dashboard_enabled" boolean DEFAULT true NOT NULL,
	"external_access_management" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "password_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "points" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"thing_id" uuid NOT NULL,
	"run_id" uuid,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"course" double precision,
	"speed" double precision,
	"accuracy" double precision,
	"timestamp" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "r2r_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"thing_id" uuid NOT NULL,
	"other_thing_id" uuid,
	"is_test" boolean DEFAULT false NOT NULL,
	"delivered" boolean DEFAULT true NOT NULL,
	"distance_m" double precision,
	"lat" double precision,
	"lng" double precision,
	"alert_time" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"permissions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "roles_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"thing_id" uuid NOT NULL,
	"run_start" timestamp with time zone NOT NULL,
	"run_end" timestamp with time zone,
	"is_active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "thing_external_identifiers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"thing_id" uuid NOT NULL,
	"identifier_id" text NOT NULL,
	"system_name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "thing_relationships" (
	"thing_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"relationship_type" text NOT NULL,
	CONSTRAINT "thing_relationships_thing_id_organization_id_pk" PRIMARY KEY("thing_id","organization_id")
);
--> statement-breakpoint
CREATE TABLE "thing_subtypes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"thing_type_id" uuid NOT NULL,
	"name" text NOT NULL,
	"display_name" text
);
--> statement-breakpoint
CREATE TABLE "thing_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"display_name" text,
	"is_emergency" boolean DEFAULT false NOT NULL,
	CONSTRAINT "thing_types_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "things" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"haas_id" text NOT NULL,
	"nickname" text,
	"thing_type_id" uuid NOT NULL,
	"thing_subtype_id" uuid,
	"vin_number" text,
	"license_plate_number" text,
	"registry_number" text,
	"external_id" text,
	"device_type" text DEFAULT 'ha5' NOT NULL,
	"in_service" boolean DEFAULT true NOT NULL,
	"is_publicly_alerting" boolean DEFAULT true NOT NULL,
	"alerting_off_at" timestamp with time zone,
	"is_responder" boolean DEFAULT true NOT NULL,
	"is_r2r_enabled" boolean DEFAULT false NOT NULL,
	"is_test_mode_on" boolean DEFAULT false NOT NULL,
	"is_allowed_for_test_mode" boolean DEFAULT false NOT NULL,
	"is_allowed_for_closures" boolean DEFAULT false NOT NULL,
	"light_intensity" smallint,
	"feed_subscriptions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"lights_on" boolean DEFAULT false NOT NULL,
	"enroute" boolean DEFAULT false NOT NULL,
	"lat" double precision,
	"lng" double precision,
	"accuracy" double precision,
	"course" double precision,
	"speed" double precision DEFAULT 0 NOT NULL,
	"street" text,
	"still_since" timestamp with time zone,
	"station_id" uuid,
	"location_id" uuid,
	"heartbeat_at" timestamp with time zone,
	"run_id" uuid,
	"run_start_time" timestamp with time zone,
	"run_points_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"access_hash" text NOT NULL,
	"refresh_hash" text NOT NULL,
	"access_expires_at" timestamp with time zone NOT NULL,
	"refresh_expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"email" text NOT NULL,
	"firstname" text NOT NULL,
	"lastname" text NOT NULL,
	"phone" text,
	"address1" text,
	"address2" text,
	"city" text,
	"state" text,
	"postal_code" text,
	"country_code" text,
	"role_id" integer NOT NULL,
	"password_hash" text,
	"password_changed_at" timestamp with time zone,
	"suspended" boolean DEFAULT false NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"locked_at" timestamp with time zone,
	"unlock_token_hash" text,
	"reset_token_hash" text,
	"reset_token_expires_at" timestamp with time zone,
	"sign_in_count" integer DEFAULT 0 NOT NULL,
	"last_sign_in_at" timestamp with time zone,
	"last_activity_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "alerting_zone_things" ADD CONSTRAINT "alerting_zone_things_zone_id_alerting_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."alerting_zones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerting_zone_things" ADD CONSTRAINT "alerting_zone_things_thing_id_things_id_fk" FOREIGN KEY ("thing_id") REFERENCES "public"."things"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerting_zones" ADD CONSTRAINT "alerting_zones_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "areas" ADD CONSTRAINT "areas_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "areas" ADD CONSTRAINT "areas_ez_type_id_ez_types_id_fk" FOREIGN KEY ("ez_type_id") REFERENCES "public"."ez_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "closures" ADD CONSTRAINT "closures_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "closures" ADD CONSTRAINT "closures_thing_id_things_id_fk" FOREIGN KEY ("thing_id") REFERENCES "public"."things"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_configs" ADD CONSTRAINT "device_configs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_configs" ADD CONSTRAINT "device_configs_thing_type_id_thing_types_id_fk" FOREIGN KEY ("thing_type_id") REFERENCES "public"."thing_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_configs" ADD CONSTRAINT "device_configs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exports" ADD CONSTRAINT "exports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exports" ADD CONSTRAINT "exports_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hazards" ADD CONSTRAINT "hazards_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hazards" ADD CONSTRAINT "hazards_thing_id_things_id_fk" FOREIGN KEY ("thing_id") REFERENCES "public"."things"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_configurations" ADD CONSTRAINT "integration_configurations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_things" ADD CONSTRAINT "location_things_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_things" ADD CONSTRAINT "location_things_thing_id_things_id_fk" FOREIGN KEY ("thing_id") REFERENCES "public"."things"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monthly_reports" ADD CONSTRAINT "monthly_reports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_relationships" ADD CONSTRAINT "organization_relationships_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_relationships" ADD CONSTRAINT "organization_relationships_related_organization_id_organizations_id_fk" FOREIGN KEY ("related_organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_organization_type_id_organization_types_id_fk" FOREIGN KEY ("organization_type_id") REFERENCES "public"."organization_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_history" ADD CONSTRAINT "password_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "r2r_alerts" ADD CONSTRAINT "r2r_alerts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "r2r_alerts" ADD CONSTRAINT "r2r_alerts_thing_id_things_id_fk" FOREIGN KEY ("thing_id") REFERENCES "public"."things"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "r2r_alerts" ADD CONSTRAINT "r2r_alerts_other_thing_id_things_id_fk" FOREIGN KEY ("other_thing_id") REFERENCES "public"."things"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runs" ADD CONSTRAINT "runs_thing_id_things_id_fk" FOREIGN KEY ("thing_id") REFERENCES "public"."things"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "thing_external_identifiers" ADD CONSTRAINT "thing_external_identifiers_thing_id_things_id_fk" FOREIGN KEY ("thing_id") REFERENCES "public"."things"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "thing_relationships" ADD CONSTRAINT "thing_relationships_thing_id_things_id_fk" FOREIGN KEY ("thing_id") REFERENCES "public"."things"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "thing_relationships" ADD CONSTRAINT "thing_relationships_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "thing_subtypes" ADD CONSTRAINT "thing_subtypes_thing_type_id_thing_types_id_fk" FOREIGN KEY ("thing_type_id") REFERENCES "public"."thing_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "things" ADD CONSTRAINT "things_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "things" ADD CONSTRAINT "things_thing_type_id_thing_types_id_fk" FOREIGN KEY ("thing_type_id") REFERENCES "public"."thing_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "things" ADD CONSTRAINT "things_thing_subtype_id_thing_subtypes_id_fk" FOREIGN KEY ("thing_subtype_id") REFERENCES "public"."thing_subtypes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alerting_zones_organization_idx" ON "alerting_zones" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_token_idx" ON "api_keys" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "api_keys_user_idx" ON "api_keys" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "areas_organization_idx" ON "areas" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "closures_organization_updated_idx" ON "closures" USING btree ("organization_id","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "closures_external_id_idx" ON "closures" USING btree ("external_id") WHERE "closures"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "exports_organization_idx" ON "exports" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "hazards_organization_time_idx" ON "hazards" USING btree ("organization_id","reported_at");--> statement-breakpoint
CREATE INDEX "jobs_queue_idx" ON "jobs" USING btree ("status","run_at");--> statement-breakpoint
CREATE INDEX "location_things_thing_idx" ON "location_things" USING btree ("thing_id");--> statement-breakpoint
CREATE INDEX "locations_organization_updated_idx" ON "locations" USING btree ("organization_id","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "monthly_reports_org_month_idx" ON "monthly_reports" USING btree ("organization_id","year","month");--> statement-breakpoint
CREATE INDEX "organization_relationships_related_idx" ON "organization_relationships" USING btree ("related_organization_id");--> statement-breakpoint
CREATE INDEX "organizations_parent_idx" ON "organizations" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "password_history_user_idx" ON "password_history" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "points_thing_time_idx" ON "points" USING btree ("thing_id","timestamp");--> statement-breakpoint
CREATE INDEX "points_run_idx" ON "points" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "r2r_alerts_thing_time_idx" ON "r2r_alerts" USING btree ("thing_id","alert_time");--> statement-breakpoint
CREATE INDEX "runs_thing_start_idx" ON "runs" USING btree ("thing_id","run_start");--> statement-breakpoint
CREATE UNIQUE INDEX "thing_external_identifiers_idx" ON "thing_external_identifiers" USING btree ("thing_id","system_name");--> statement-breakpoint
CREATE INDEX "thing_relationships_org_idx" ON "thing_relationships" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "things_organization_updated_idx" ON "things" USING btree ("organization_id","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "things_haas_id_idx" ON "things" USING btree ("haas_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tokens_access_idx" ON "tokens" USING btree ("access_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "tokens_refresh_idx" ON "tokens" USING btree ("refresh_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_idx" ON "users" USING btree (lower("email")) WHERE "users"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "users_organization_idx" ON "users" USING btree ("organization_id");