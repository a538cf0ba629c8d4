// An owner signs in (or up) to the service's internal project with the account kit's own forms; the kit's
// "Sign up" / "Sign in" links come back here through the app's redirect method (see console-app.tsx).
import { Stack, Text } from '@mantine/core';
import { SignIn, SignUp } from '@gatehouse/account-kit';
import type { SavedConnection } from '../../shared/bridge';
import { ConsoleShell } from '../components/console-shell';
import { t } from '../messages';

export function SignInScreen({ connection, mode }: { connection: SavedConnection; mode: 'sign-in' | 'sign-up' }) {
  return (
    <ConsoleShell context={connection.label}>
      <Stack maw={480} mx="auto" gap="md" pt="md">
        <Text ta="center" c="dimmed">{t('signIn.title')}</Text>
        {mode === 'sign-up' ? <SignUp /> : <SignIn />}
      </Stack>
    </ConsoleShell>
  );
}
