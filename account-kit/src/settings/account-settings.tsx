// {handler}/account-settings (client-library §7) and <AccountSettings> for host apps. This module is a lazy
// chunk of the handler; its stylesheet (settings.css) loads with it.
import './settings.css';
import { LoadBoundary } from '../components/load-boundary';
import { FrameSkeleton } from './frame-skeleton';
import { SettingsFrame, type ExtraSettingsItem, type SettingsFrameProps } from './frame';
import { registerEnglish } from '../messages';
import { enSettings } from '../messages/en-settings';

// The settings texts come with this chunk rather than with every page (see messages/index.ts).
registerEnglish(enSettings);

export type { ExtraSettingsItem };
export type AccountSettingsProps = SettingsFrameProps;

/** The account settings page: requires a signed-in user (redirects to sign-in otherwise). */
export function AccountSettings(props: AccountSettingsProps) {
  return (
    <LoadBoundary fallback={<FrameSkeleton />}>
      <SettingsFrame {...props} />
    </LoadBoundary>
  );
}

export function AccountSettingsPage() {
  return <AccountSettings fullPage />;
}
