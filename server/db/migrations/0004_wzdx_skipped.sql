ALTER TABLE "wzdx_feeds" ADD COLUMN "skipped" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "wzdx_feeds" ADD COLUMN "skipped_count" integer DEFAULT 0 NOT NULL;