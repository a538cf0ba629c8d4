-- The user summary (0003) writes the user row only when a summary column changes (issue 31, sign-up). A sign-up
-- inserts the user, then its primary email channel, whose trigger rewrote the row just inserted: a new version of it
-- in every index of users (the trigram one too), and the change-notice trigger of 0026 announcing a change no one can
-- have seen (2.07 ms of PostgreSQL's 6.7 per sign-up, pg_stat_statements). The sign-up now inserts the user with its
-- primary email columns set (repo/user-writes.ts), so the channel's trigger finds nothing to change and writes
-- nothing; a change of a channel's value, verification or use for sign-in still updates the row as before. The row
-- lock comes first, as before, so that concurrent writers of one user's rows see each other's committed changes.
CREATE OR REPLACE FUNCTION gatehouse_refresh_user_summary(uid uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  cur record;
  fresh record;
BEGIN
  SELECT u.primary_email, u.primary_email_verified, u.primary_email_auth_enabled, u.has_passkey, u.oauth_providers,
    u.selected_team_id
  INTO cur FROM users u WHERE u.id = uid FOR UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  SELECT
    pe.value AS primary_email,
    coalesce(pe.is_verified, false) AS primary_email_verified,
    coalesce(pe.used_for_auth, false) AS primary_email_auth_enabled,
    EXISTS (SELECT 1 FROM passkeys p WHERE p.user_id = uid) AS has_passkey,
    coalesce((
      SELECT jsonb_agg(jsonb_build_object('id', o.provider_id, 'account_id', o.provider_account_id, 'email', o.email) ORDER BY o.created_at, o.provider_id)
      FROM oauth_accounts o WHERE o.user_id = uid), '[]'::jsonb) AS oauth_providers,
    (SELECT m.team_id FROM team_members m WHERE m.user_id = uid AND m.is_selected LIMIT 1) AS selected_team_id
  INTO fresh
  FROM (SELECT 1) AS one
  LEFT JOIN contact_channels pe ON pe.user_id = uid AND pe.is_primary AND pe.type = 'email';
  IF cur.primary_email IS NOT DISTINCT FROM fresh.primary_email
    AND cur.primary_email_verified = fresh.primary_email_verified
    AND cur.primary_email_auth_enabled = fresh.primary_email_auth_enabled
    AND cur.has_passkey = fresh.has_passkey
    AND cur.oauth_providers = fresh.oauth_providers
    AND cur.selected_team_id IS NOT DISTINCT FROM fresh.selected_team_id THEN
    RETURN;
  END IF;
  UPDATE users SET
    primary_email = fresh.primary_email,
    primary_email_verified = fresh.primary_email_verified,
    primary_email_auth_enabled = fresh.primary_email_auth_enabled,
    has_passkey = fresh.has_passkey,
    oauth_providers = fresh.oauth_providers,
    selected_team_id = fresh.selected_team_id
  WHERE id = uid;
END $$;
--> statement-breakpoint
-- An insert has no old row: it summarised a user "null" as well (a lookup that found nothing) on every insert.
CREATE OR REPLACE FUNCTION gatehouse_user_summary_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    PERFORM gatehouse_refresh_user_summary(NEW.user_id);
  END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD.user_id IS DISTINCT FROM NEW.user_id) THEN
    PERFORM gatehouse_refresh_user_summary(OLD.user_id);
  END IF;
  RETURN NULL;
END $$;
