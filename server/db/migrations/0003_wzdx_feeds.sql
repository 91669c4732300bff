CREATE TABLE "wzdx_feeds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"url" text NOT NULL,
	"poll_interval_s" integer DEFAULT 300 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"last_fetched_at" timestamp with time zone,
	"last_error" text,
	"imported_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "closures_external_id_idx";--> statement-breakpoint
ALTER TABLE "closures" ADD COLUMN "wzdx_feed_id" uuid;--> statement-breakpoint
ALTER TABLE "wzdx_feeds" ADD CONSTRAINT "wzdx_feeds_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wzdx_feeds_organization_idx" ON "wzdx_feeds" USING btree ("organization_id");--> statement-breakpoint
ALTER TABLE "closures" ADD CONSTRAINT "closures_wzdx_feed_id_wzdx_feeds_id_fk" FOREIGN KEY ("wzdx_feed_id") REFERENCES "public"."wzdx_feeds"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "closures_feed_external_id_idx" ON "closures" USING btree ("wzdx_feed_id","external_id") WHERE "closures"."deleted_at" is null and "closures"."wzdx_feed_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "closures_external_id_idx" ON "closures" USING btree ("external_id") WHERE "closures"."deleted_at" is null and "closures"."wzdx_feed_id" is null;