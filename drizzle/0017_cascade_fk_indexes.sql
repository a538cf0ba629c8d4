-- Deleting a user cascades to every table referencing users(id), and PostgreSQL finds the rows to delete by the
-- referencing column: oauth_tokens was indexed by (project_id, user_id, provider_id) and authorization_codes not by
-- user_id at all, so each user delete read the whole of both tables (at a million users with OAuth tokens, a million
-- rows per delete). Every lookup of oauth_tokens names the user (unique across projects), so user_id leads its index.
DROP INDEX "oauth_tokens_account_idx";--> statement-breakpoint
CREATE INDEX "authorization_codes_user_idx" ON "authorization_codes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "oauth_tokens_account_idx" ON "oauth_tokens" USING btree ("user_id","provider_id");