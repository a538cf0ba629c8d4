-- A new user's counters in one statement. The insert trigger ran the same function as a delete: one upsert per
-- counter, each after a check that the project still exists, then a read of the user's passkeys, OAuth accounts,
-- activity days and country. A user being inserted has none of those yet (they reference the user, so they come
-- after it: their own triggers count them), and its project exists (the foreign key). That was about 0.9 ms of the
-- database's CPU on every sign-up, beside the password hash (issue 16 §3). Updates and deletes still go through
-- gatehouse_user_metrics.
CREATE OR REPLACE FUNCTION gatehouse_new_user_metrics(u users) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF u.is_anonymous THEN
    RETURN;
  END IF;
  -- The keys are distinct (one upsert may not touch a row twice) and always in this order, like the bumps before.
  INSERT INTO metric_counts (project_id, metric, key, n)
  SELECT u.project_id, c.metric, c.key, 1
  FROM (VALUES
    ('users', '', true),
    ('sign_ups', to_char((u.created_at AT TIME ZONE 'utc')::date, 'YYYY-MM-DD'), true),
    ('method', 'password', u.password_hash IS NOT NULL),
    ('method', 'otp', coalesce(u.otp_auth_enabled, false))
  ) AS c(metric, key, counted)
  WHERE c.counted
  ON CONFLICT (project_id, metric, key) DO UPDATE SET n = metric_counts.n + excluded.n;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gatehouse_users_metrics_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM gatehouse_new_user_metrics(NEW);
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
