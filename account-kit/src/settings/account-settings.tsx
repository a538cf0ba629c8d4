// {handler}/account-settings (client-library §7). Built out in account-settings issue; this file is its entry.
import { useUser } from '../hooks/use-user';

export function AccountSettings() {
  useUser({ or: 'redirect' });
  return null;
}

export function AccountSettingsPage() {
  return <AccountSettings />;
}
