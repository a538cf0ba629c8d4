-- The audit log is append-only: no code path updates or deletes its rows (service/src/repo/audit-log.ts only
-- inserts and reads), and the database refuses it too, so a bug or an injected statement cannot rewrite history.
-- Removing old rows is an operator's deliberate act: ALTER TABLE audit_log DISABLE TRIGGER, or TRUNCATE.
CREATE OR REPLACE FUNCTION gatehouse_audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION gatehouse_audit_log_append_only();
