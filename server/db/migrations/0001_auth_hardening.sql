CREATE TABLE "sign_in_throttles" (
	"email_key" text NOT NULL,
	"address" text NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"blocked_until" timestamp with time zone,
	"refused" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sign_in_throttles_email_key_address_pk" PRIMARY KEY("email_key","address")
);
--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "family_id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "recovery_mail_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "recovery_mail_window_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "tokens_family_idx" ON "tokens" USING btree ("family_id");--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "failed_attempts";