// An owner's sign-in coming back to the web console (OAuth provider, mailed magic link): the client library finishes
// it, then the console opens the screen the owner started from. Failures say why, with a way back to sign-in. A
// magic link asks first, as the service's own page does: a mail scanner that opens links must not spend the code.
import { useEffect, useState } from 'react';
import { Alert, Anchor, Button, Stack, Title } from '@mantine/core';
import type { GatehouseClientApp } from '@gatehouse/shared/client';
import { ConsoleShell } from '../components/console-shell';
import { ErrorMessage } from '../components/error-message';
import { ListSkeleton } from '../components/screen-boundary';
import { navigate } from '../hooks/use-route';
import { takeReturnRoute, type OwnerCallback } from '../lib/owner-callback';
import { routeHash } from '../lib/routes';
import { t } from '../messages';

// One run per page load: React's development double effect must not spend the OAuth state or the code twice.
let finishing: Promise<unknown> | null = null;

async function finish(app: GatehouseClientApp, callback: OwnerCallback): Promise<void> {
  if (callback.kind === 'oauth') {
    if (!(await app.callOAuthCallback())) throw new Error('oauth-callback-unusable');
    return;
  }
  if (!callback.code) throw new Error('magic-link-without-code');
  const result = await app.signInWithMagicLink(callback.code, { noRedirect: true });
  if (result.status === 'error') throw result.error;
}

export function OwnerCallbackScreen({ app, callback, connectionId, label, onDone }: {
  app: GatehouseClientApp; callback: OwnerCallback; connectionId: string; label: string; onDone(): void;
}) {
  const [error, setError] = useState<unknown>(null);
  const [confirmed, setConfirmed] = useState(callback.kind === 'oauth');
  useEffect(() => {
    if (!confirmed) return;
    finishing ??= finish(app, callback);
    finishing.then(
      () => {
        const back = takeReturnRoute(sessionStorage, connectionId);
        // The callback's query goes; the remembered screen's address takes its place.
        history.replaceState(null, '', `/console/${routeHash(back)}`);
        navigate(back);
        onDone();
      },
      (e: unknown) => setError(e),
    );
  }, [app, callback, connectionId, onDone, confirmed]);
  const signIn = { name: 'sign-in' as const, connectionId };
  return (
    <ConsoleShell context={label}>
      <Stack maw={480} mx="auto" pt="md">
        {!confirmed ? (
          <Stack align="center" data-testid="magic-link-confirm">
            <Title order={1} size="h3">{t('callback.confirmTitle')}</Title>
            <Button onClick={() => setConfirmed(true)}>{t('callback.confirm')}</Button>
          </Stack>
        ) : error === null ? <ListSkeleton rows={1} /> : (
          <Alert color="red" role="alert" title={t('callback.failedTitle')}>
            <Stack gap="xs" align="flex-start">
              <span data-testid="callback-error"><ErrorMessage error={error} /></span>
              <Anchor href={`/console/${routeHash(signIn)}`}>{t('callback.tryAgain')}</Anchor>
            </Stack>
          </Alert>
        )}
      </Stack>
    </ConsoleShell>
  );
}
