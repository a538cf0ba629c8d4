ALTER TABLE "audit_log" ADD COLUMN "subject_user_id" uuid;--> statement-breakpoint
CREATE INDEX "audit_log_subject_idx" ON "audit_log" USING btree ("project_id","subject_user_id","id");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("project_id","actor_user_id","id");--> statement-breakpoint
CREATE INDEX "audit_log_event_idx" ON "audit_log" USING btree ("project_id","event","id");