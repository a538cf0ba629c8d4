DROP INDEX "cli_auth_attempts_login_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "cli_auth_attempts_login_idx" ON "cli_auth_attempts" USING btree ("login_code_hash");