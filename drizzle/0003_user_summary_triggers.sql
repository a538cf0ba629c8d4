-- Keeps the users' summary columns (primary email, passkey, OAuth links, selected team) in step with the rows
-- they summarise, so that reading a user (GET /users/me on every page load) is one primary-key lookup.
CREATE OR REPLACE FUNCTION gatehouse_refresh_user_summary(uid uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- Lock the user first: concurrent writers of the same user's rows hold this lock until they commit, so the
  -- statements below (each with a fresh snapshot) see every committed change.
  PERFORM 1 FROM users WHERE id = uid FOR UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  UPDATE users u SET
    primary_email = pe.value,
    primary_email_verified = coalesce(pe.is_verified, false),
    primary_email_auth_enabled = coalesce(pe.used_for_auth, false),
    has_passkey = EXISTS (SELECT 1 FROM passkeys p WHERE p.user_id = uid),
    oauth_providers = coalesce((
      SELECT jsonb_agg(jsonb_build_object('id', o.provider_id, 'account_id', o.provider_account_id, 'email', o.email) ORDER BY o.created_at, o.provider_id)
      FROM oauth_accounts o WHERE o.user_id = uid), '[]'::jsonb),
    selected_team_id = (SELECT m.team_id FROM team_members m WHERE m.user_id = uid AND m.is_selected LIMIT 1)
  FROM (SELECT 1) AS one
  LEFT JOIN contact_channels pe ON pe.user_id = uid AND pe.is_primary AND pe.type = 'email'
  WHERE u.id = uid;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gatehouse_user_summary_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    PERFORM gatehouse_refresh_user_summary(NEW.user_id);
  END IF;
  IF TG_OP = 'DELETE' OR OLD.user_id IS DISTINCT FROM NEW.user_id THEN
    PERFORM gatehouse_refresh_user_summary(OLD.user_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER contact_channels_user_summary AFTER INSERT OR UPDATE OR DELETE ON contact_channels
  FOR EACH ROW EXECUTE FUNCTION gatehouse_user_summary_trigger();
--> statement-breakpoint
CREATE TRIGGER passkeys_user_summary AFTER INSERT OR UPDATE OR DELETE ON passkeys
  FOR EACH ROW EXECUTE FUNCTION gatehouse_user_summary_trigger();
--> statement-breakpoint
CREATE TRIGGER oauth_accounts_user_summary AFTER INSERT OR UPDATE OR DELETE ON oauth_accounts
  FOR EACH ROW EXECUTE FUNCTION gatehouse_user_summary_trigger();
--> statement-breakpoint
CREATE TRIGGER team_members_user_summary AFTER INSERT OR UPDATE OR DELETE ON team_members
  FOR EACH ROW EXECUTE FUNCTION gatehouse_user_summary_trigger();
--> statement-breakpoint
SELECT gatehouse_refresh_user_summary(id) FROM users;
