-- Every session that ends before its time (sign-out, revocation, password reset or change, user or project
-- deletion) is recorded and announced to every instance in the same transaction; the instances then refuse its
-- access tokens at once (service/src/auth/revoked-sessions.ts). An expired session removed by housekeeping is not
-- a revocation.
CREATE OR REPLACE FUNCTION gatehouse_session_revoked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.expires_at IS NULL OR OLD.expires_at > now() THEN
    INSERT INTO revoked_sessions (session_id, project_id) VALUES (OLD.id, OLD.project_id) ON CONFLICT (session_id) DO NOTHING;
    PERFORM pg_notify('gatehouse_invalidate', 'session-revoked:' || OLD.id::text);
  END IF;
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_revoked AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION gatehouse_session_revoked();
