// Emails & Auth (client-library §7.3), sections in this order: emails, password (credential sign-in enabled),
// passkey (passkeys enabled), OTP sign-in (magic link enabled), connected OAuth accounts, the applications signed in
// with this account (Gatehouse's connected apps, issue 27), multi-factor authentication.
import { Stack } from '@mantine/core';
import type { CurrentUser } from '@gatehouse/shared/client';
import { useProject } from '../hooks/use-project';
import { EmailsSection } from './emails';
import { ConnectedAccountsSection } from './connected-accounts';
import { ConnectedAppsSection } from './connected-apps';
import { SectionBoundary } from './section-boundary';
import { MfaSection } from './mfa';
import { OtpSection } from './otp';
import { PasskeySection } from './passkey';
import { PasswordSection } from './password';

export function AuthItem({ user }: { user: CurrentUser }) {
  const { config } = useProject();
  return (
    <Stack gap="lg">
      <EmailsSection user={user} />
      {config.credentialEnabled && <PasswordSection user={user} />}
      {config.passkeyEnabled && <PasskeySection user={user} />}
      {config.magicLinkEnabled && <OtpSection user={user} />}
      <ConnectedAccountsSection user={user} />
      <SectionBoundary><ConnectedAppsSection user={user} /></SectionBoundary>
      <MfaSection user={user} />
    </Stack>
  );
}
