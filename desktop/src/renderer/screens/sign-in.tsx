// An owner signs in (or up) to the service's internal project with the account kit's own forms; the kit's
// "Sign up" / "Sign in" links come back here through the app's redirect method (see console-app.tsx).
import { useEffect } from 'react';
import { Stack, Text } from '@mantine/core';
import { rememberReturnRoute } from '../lib/owner-callback';
import { SignIn, SignUp } from '@gatehouse/account-kit';
import type { SavedConnection } from '../../shared/bridge';
import { ConsoleShell } from '../components/console-shell';
import { t } from '../messages';

export function SignInScreen({ connection, mode }: { connection: SavedConnection; mode: 'sign-in' | 'sign-up' }) {
  // A sign-in that leaves the page (OAuth, a mailed link) comes back to the screen the owner was opening.
  useEffect(() => rememberReturnRoute(sessionStorage, window.location.hash), []);
  return (
    <ConsoleShell context={connection.label}>
      <Stack maw={480} mx="auto" gap="md" pt="md">
        <Text ta="center" c="dimmed">{t('signIn.title')}</Text>
        {mode === 'sign-up' ? <SignUp /> : <SignIn />}
      </Stack>
    </ConsoleShell>
  );
}
