ALTER TABLE "emails" ADD COLUMN "live_subject" text;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "redacted_html" text;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "redacted_text" text;