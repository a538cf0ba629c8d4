-- Change notices for the rows each service instance keeps in memory on PostgreSQL (issue 31,
-- service/src/db/change-notices.ts). After a statement changes users (any column but last_active_at, which the
-- activity flush moves every second), teams (a user's selected team is read with the user) or what the refresh
-- grant's session lookup reads of sessions (not their last use, which the flush moves), the keys it changed go out on the channel the instances already listen on (`gatehouse_invalidate`, services.ts) when it commits. Each
-- payload carries the transaction's id: the instance that ran the statement learns the same keys at once as a
-- notice (only on its own connections, which set `gatehouse.change_notices`), reads them from the database until
-- their NOTIFY has come back, and so never answers a read older than its own committed write.
-- Statement-level (transition tables): one trigger call per statement, however many rows; over 100 changed rows the
-- notice says "everything" rather than filling the queue (a project's deletion, a bulk change), and no more than 101
-- rows are looked at.
CREATE OR REPLACE FUNCTION gatehouse_send_change_notices(kind text, keys text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  xid text := txid_current()::text;
  payloads text[];
BEGIN
  IF keys IS NULL OR cardinality(keys) = 0 THEN
    RETURN;
  END IF;
  IF cardinality(keys) > 100 THEN
    payloads := ARRAY['users:*@' || xid];
  ELSE
    SELECT array_agg(DISTINCT kind || ':' || k || '@' || xid) INTO payloads FROM unnest(keys) AS k;
  END IF;
  IF current_setting('gatehouse.change_notices', true) = 'on' THEN
    RAISE NOTICE 'gatehouse: kept rows changed' USING DETAIL = array_to_string(payloads, E'\n');
  END IF;
  PERFORM pg_notify('gatehouse_invalidate', p) FROM unnest(payloads) AS p;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gatehouse_user_change_notices() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The activity flush (repo/activity.ts) says so in its transaction: its update of users sets last_active_at only,
  -- and comparing every row it names would cost the flush more than the update itself.
  IF TG_OP = 'UPDATE' AND current_setting('gatehouse.activity_flush', true) = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    PERFORM gatehouse_send_change_notices('user', (SELECT array_agg(k) FROM (SELECT o.project_id || ' ' || o.id AS k FROM old_rows o LIMIT 101) x));
  ELSE
    PERFORM gatehouse_send_change_notices('user', (SELECT array_agg(k) FROM (SELECT n.project_id || ' ' || n.id AS k
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (to_jsonb(o) - 'last_active_at') IS DISTINCT FROM (to_jsonb(n) - 'last_active_at') LIMIT 101) x));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gatehouse_team_change_notices() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM gatehouse_send_change_notices('team', (SELECT array_agg(k) FROM (SELECT o.id::text AS k FROM old_rows o LIMIT 101) x));
  ELSE
    PERFORM gatehouse_send_change_notices('team', (SELECT array_agg(k) FROM (SELECT n.id::text AS k
      FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE to_jsonb(o) IS DISTINCT FROM to_jsonb(n) LIMIT 101) x));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_change_notices_update AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION gatehouse_user_change_notices();
--> statement-breakpoint
CREATE TRIGGER users_change_notices_delete AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION gatehouse_user_change_notices();
--> statement-breakpoint
CREATE TRIGGER teams_change_notices_update AFTER UPDATE ON teams REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION gatehouse_team_change_notices();
--> statement-breakpoint
CREATE TRIGGER teams_change_notices_delete AFTER DELETE ON teams REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION gatehouse_team_change_notices();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gatehouse_session_change_notices() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM gatehouse_send_change_notices('session', (SELECT array_agg(k) FROM (SELECT o.id::text AS k FROM old_rows o LIMIT 101) x));
  ELSE
    PERFORM gatehouse_send_change_notices('session', ARRAY[OLD.id::text, NEW.id::text]);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_change_notices_delete AFTER DELETE ON sessions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION gatehouse_session_change_notices();
--> statement-breakpoint
-- The columns the session lookup reads (repo/sessions.ts findByRefreshToken); a change of another column (the
-- flush's last use) fires nothing.
CREATE TRIGGER sessions_change_notices_update AFTER UPDATE OF id, project_id, user_id, refresh_token_hash, expires_at, created_at ON sessions
  FOR EACH ROW EXECUTE FUNCTION gatehouse_session_change_notices();
