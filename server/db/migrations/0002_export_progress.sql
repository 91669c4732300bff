ALTER TABLE "exports" ADD COLUMN "rows_written" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "exports" ADD COLUMN "rows_total" integer;--> statement-breakpoint
ALTER TABLE "exports" ADD COLUMN "started_at" timestamp with time zone;