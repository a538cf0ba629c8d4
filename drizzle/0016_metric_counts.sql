-- GET /internal/metrics counted over every user of the project on each request (a count, a 31-day join on
-- created_at, the login methods, each user's latest country): at a million users that is a scan of the table per
-- request. These counters are kept by triggers in the transaction of each write instead, so the request reads a few
-- dozen rows. The figures stay those of protocol-resources §12.4: anonymous users are left out of all of them, a
-- deleted user leaves every figure, an anonymous user upgraded to a real one enters them.
-- metric: 'users' (key ''), 'sign_ups' and 'active' (key: UTC day 'YYYY-MM-DD'), 'method' (key: method),
-- 'country' (key: country code of the user's latest activity day that has one).
CREATE TABLE metric_counts (
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  metric text NOT NULL,
  key text NOT NULL,
  n integer NOT NULL,
  PRIMARY KEY (project_id, metric, key)
);
--> statement-breakpoint
-- Each user's latest activity country, remembered so that a change of it moves the user between two counters.
CREATE TABLE user_countries (
  user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  project_id text NOT NULL,
  country text NOT NULL
);
--> statement-breakpoint
-- Recently active users (GET /internal/metrics) read the newest last activities from here instead of sorting all users.
CREATE INDEX users_project_last_active_idx ON users (project_id, last_active_at, id);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gatehouse_metric_bump(p text, m text, k text, d integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- Nothing is counted for a project being deleted (its counters are deleted by the cascade already).
  IF d = 0 OR NOT EXISTS (SELECT 1 FROM projects WHERE id = p) THEN
    RETURN;
  END IF;
  INSERT INTO metric_counts (project_id, metric, key, n) VALUES (p, m, k, d)
  ON CONFLICT (project_id, metric, key) DO UPDATE SET n = metric_counts.n + excluded.n;
END $$;
--> statement-breakpoint
-- Adds (sign 1) or removes (sign -1) everything a user counts for: used when the user is created or deleted, and
-- around a change of the user's own counted columns (anonymous flag, password, OTP, sign-up time).
CREATE OR REPLACE FUNCTION gatehouse_user_metrics(u users, sign integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
  IF u.is_anonymous THEN
    RETURN;
  END IF;
  PERFORM gatehouse_metric_bump(u.project_id, 'users', '', sign);
  PERFORM gatehouse_metric_bump(u.project_id, 'sign_ups', to_char((u.created_at AT TIME ZONE 'utc')::date, 'YYYY-MM-DD'), sign);
  IF u.password_hash IS NOT NULL THEN PERFORM gatehouse_metric_bump(u.project_id, 'method', 'password', sign); END IF;
  IF u.otp_auth_enabled THEN PERFORM gatehouse_metric_bump(u.project_id, 'method', 'otp', sign); END IF;
  FOR r IN SELECT count(*)::int AS n FROM passkeys WHERE user_id = u.id HAVING count(*) > 0 LOOP
    PERFORM gatehouse_metric_bump(u.project_id, 'method', 'passkey', sign * r.n);
  END LOOP;
  FOR r IN SELECT lower(provider_id) AS k, count(*)::int AS n FROM oauth_accounts WHERE user_id = u.id AND used_for_auth GROUP BY 1 LOOP
    PERFORM gatehouse_metric_bump(u.project_id, 'method', r.k, sign * r.n);
  END LOOP;
  FOR r IN SELECT to_char(day, 'YYYY-MM-DD') AS k FROM user_activity_days WHERE user_id = u.id LOOP
    PERFORM gatehouse_metric_bump(u.project_id, 'active', r.k, sign);
  END LOOP;
  FOR r IN SELECT country FROM user_countries WHERE user_id = u.id LOOP
    PERFORM gatehouse_metric_bump(u.project_id, 'country', r.country, sign);
  END LOOP;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gatehouse_users_metrics_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM gatehouse_user_metrics(NEW, 1);
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    -- BEFORE DELETE: the user's passkeys, OAuth accounts and activity are still there to be subtracted; their own
    -- triggers skip a user that no longer exists when the cascade removes them.
    PERFORM gatehouse_user_metrics(OLD, -1);
    RETURN OLD;
  END IF;
  PERFORM gatehouse_user_metrics(OLD, -1);
  PERFORM gatehouse_user_metrics(NEW, 1);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_metrics_insert AFTER INSERT ON users FOR EACH ROW EXECUTE FUNCTION gatehouse_users_metrics_trigger();
--> statement-breakpoint
CREATE TRIGGER users_metrics_delete BEFORE DELETE ON users FOR EACH ROW EXECUTE FUNCTION gatehouse_users_metrics_trigger();
--> statement-breakpoint
CREATE TRIGGER users_metrics_update AFTER UPDATE OF is_anonymous, password_hash, otp_auth_enabled, created_at ON users
  FOR EACH ROW WHEN (OLD.is_anonymous IS DISTINCT FROM NEW.is_anonymous OR (OLD.password_hash IS NULL) <> (NEW.password_hash IS NULL)
    OR OLD.otp_auth_enabled IS DISTINCT FROM NEW.otp_auth_enabled OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION gatehouse_users_metrics_trigger();
--> statement-breakpoint
-- Whether a user exists and counts (not anonymous); false while the user is being deleted.
CREATE OR REPLACE FUNCTION gatehouse_user_counts(uid uuid) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT NOT is_anonymous FROM users WHERE id = uid), false)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gatehouse_passkeys_metrics_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND gatehouse_user_counts(OLD.user_id) THEN
    PERFORM gatehouse_metric_bump(OLD.project_id, 'method', 'passkey', -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND gatehouse_user_counts(NEW.user_id) THEN
    PERFORM gatehouse_metric_bump(NEW.project_id, 'method', 'passkey', 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER passkeys_metrics AFTER INSERT OR DELETE OR UPDATE OF user_id ON passkeys FOR EACH ROW EXECUTE FUNCTION gatehouse_passkeys_metrics_trigger();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gatehouse_oauth_metrics_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.used_for_auth AND gatehouse_user_counts(OLD.user_id) THEN
    PERFORM gatehouse_metric_bump(OLD.project_id, 'method', lower(OLD.provider_id), -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.used_for_auth AND gatehouse_user_counts(NEW.user_id) THEN
    PERFORM gatehouse_metric_bump(NEW.project_id, 'method', lower(NEW.provider_id), 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER oauth_accounts_metrics AFTER INSERT OR DELETE OR UPDATE OF used_for_auth, provider_id, user_id ON oauth_accounts
  FOR EACH ROW EXECUTE FUNCTION gatehouse_oauth_metrics_trigger();
--> statement-breakpoint
-- Recomputes a user's latest activity country (one backward read of the user's activity days) and moves the user
-- between country counters when it changed.
CREATE OR REPLACE FUNCTION gatehouse_refresh_user_country(uid uuid, p text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE latest text; known text; counts boolean;
BEGIN
  SELECT upper(country_code) INTO latest FROM user_activity_days
    WHERE user_id = uid AND country_code IS NOT NULL AND country_code <> '' ORDER BY day DESC LIMIT 1;
  SELECT country INTO known FROM user_countries WHERE user_id = uid;
  IF latest IS NOT DISTINCT FROM known OR NOT EXISTS (SELECT 1 FROM users WHERE id = uid) THEN
    RETURN;
  END IF;
  counts := gatehouse_user_counts(uid);
  IF known IS NOT NULL THEN
    IF counts THEN PERFORM gatehouse_metric_bump(p, 'country', known, -1); END IF;
    DELETE FROM user_countries WHERE user_id = uid;
  END IF;
  IF latest IS NOT NULL THEN
    IF counts THEN PERFORM gatehouse_metric_bump(p, 'country', latest, 1); END IF;
    INSERT INTO user_countries (user_id, project_id, country) VALUES (uid, p, latest);
  END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gatehouse_activity_metrics_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND gatehouse_user_counts(OLD.user_id) THEN
    PERFORM gatehouse_metric_bump(OLD.project_id, 'active', to_char(OLD.day, 'YYYY-MM-DD'), -1);
  END IF;
  IF TG_OP = 'INSERT' AND gatehouse_user_counts(NEW.user_id) THEN
    PERFORM gatehouse_metric_bump(NEW.project_id, 'active', to_char(NEW.day, 'YYYY-MM-DD'), 1);
  END IF;
  IF TG_OP = 'DELETE' THEN
    PERFORM gatehouse_refresh_user_country(OLD.user_id, OLD.project_id);
  ELSIF TG_OP = 'INSERT' AND coalesce(NEW.country_code, '') <> '' THEN
    PERFORM gatehouse_refresh_user_country(NEW.user_id, NEW.project_id);
  ELSIF TG_OP = 'UPDATE' AND NEW.country_code IS DISTINCT FROM OLD.country_code THEN
    PERFORM gatehouse_refresh_user_country(NEW.user_id, NEW.project_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER user_activity_days_metrics AFTER INSERT OR DELETE OR UPDATE OF country_code ON user_activity_days
  FOR EACH ROW EXECUTE FUNCTION gatehouse_activity_metrics_trigger();
--> statement-breakpoint
-- Recounts everything from the rows (this migration, and after a bulk load that bypassed the triggers).
CREATE OR REPLACE FUNCTION gatehouse_rebuild_metric_counts() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM user_countries;
  INSERT INTO user_countries (user_id, project_id, country)
    SELECT DISTINCT ON (a.user_id) a.user_id, a.project_id, upper(a.country_code) FROM user_activity_days a
    WHERE a.country_code IS NOT NULL AND a.country_code <> '' ORDER BY a.user_id, a.day DESC;
  DELETE FROM metric_counts;
  INSERT INTO metric_counts (project_id, metric, key, n)
  SELECT project_id, 'users', '', count(*) FROM users WHERE NOT is_anonymous GROUP BY project_id
  UNION ALL SELECT project_id, 'sign_ups', to_char((created_at AT TIME ZONE 'utc')::date, 'YYYY-MM-DD'), count(*)
    FROM users WHERE NOT is_anonymous GROUP BY 1, 3
  UNION ALL SELECT project_id, 'method', 'password', count(*) FROM users WHERE NOT is_anonymous AND password_hash IS NOT NULL GROUP BY 1
  UNION ALL SELECT project_id, 'method', 'otp', count(*) FROM users WHERE NOT is_anonymous AND otp_auth_enabled GROUP BY 1
  UNION ALL SELECT p.project_id, 'method', 'passkey', count(*) FROM passkeys p JOIN users u ON u.id = p.user_id WHERE NOT u.is_anonymous GROUP BY 1
  UNION ALL SELECT o.project_id, 'method', lower(o.provider_id), count(*) FROM oauth_accounts o JOIN users u ON u.id = o.user_id
    WHERE o.used_for_auth AND NOT u.is_anonymous GROUP BY 1, 3
  UNION ALL SELECT a.project_id, 'active', to_char(a.day, 'YYYY-MM-DD'), count(*) FROM user_activity_days a JOIN users u ON u.id = a.user_id
    WHERE NOT u.is_anonymous GROUP BY 1, 3
  UNION ALL SELECT c.project_id, 'country', c.country, count(*) FROM user_countries c JOIN users u ON u.id = c.user_id
    WHERE NOT u.is_anonymous GROUP BY 1, 3;
END $$;
--> statement-breakpoint
SELECT gatehouse_rebuild_metric_counts();
