// A project's security settings as `/internal/security-settings` shows them.
import type { ProjectSecuritySettings } from '@gatehouse/shared/schemas/security-settings';
import type { Project } from '../repo/projects';

export function securitySettingsView(s: Project['security']): ProjectSecuritySettings {
  return {
    new_device_sign_in_notice_enabled: s.new_device_sign_in_notice_enabled,
    password_min_length: s.password_min_length,
    session_lifetime_seconds: s.session_lifetime_seconds,
    session_idle_timeout_seconds: s.session_idle_timeout_seconds,
  };
}
