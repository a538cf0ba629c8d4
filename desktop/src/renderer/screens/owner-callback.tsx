// An owner's sign-in coming back to the console (OAuth provider, mailed magic link; on the web, or through the
// desktop app's loopback listener): the client library finishes it, then the console opens the screen the owner
// started from. Failures say why, with a way back to sign-in. A magic link asks first, as the service's own page
// does: a mail scanner that opens links must not spend the code.
import { useCallback, useEffect, useState } from 'react';
import { Alert, Anchor, Button, Stack, Title } from '@mantine/core';
import type { GatehouseClientApp } from '@gatehouse/shared/client';
import { ConsoleShell } from '../components/console-shell';
import { ErrorMessage } from '../components/error-message';
import { ListSkeleton } from '../components/screen-boundary';
import { navigate } from '../hooks/use-route';
import { takeReturnRoute, type OwnerCallback } from '../lib/owner-callback';
import { routeHash, type Route } from '../lib/routes';
import { withReturnAddress } from '../lib/apps';
import { t } from '../messages';

// One run per return: React's development double effect must not spend the OAuth state or the code twice.
let finishing: { callback: OwnerCallback; done: Promise<unknown> } | null = null;

async function finish(app: GatehouseClientApp, callback: OwnerCallback, connectionId: string): Promise<void> {
  if (callback.kind === 'oauth') {
    if (!(await withReturnAddress(connectionId, callback.address, () => app.callOAuthCallback()))) throw new Error('oauth-callback-unusable');
    return;
  }
  if (!callback.code) throw new Error('magic-link-without-code');
  const result = await app.signInWithMagicLink(callback.code, { noRedirect: true });
  if (result.status === 'error') throw result.error;
}

export function OwnerCallbackScreen({ app, platformKind, callback, connectionId, label, onDone }: {
  app: GatehouseClientApp; platformKind: 'web' | 'desktop'; callback: OwnerCallback; connectionId: string; label: string; onDone(): void;
}) {
  const [error, setError] = useState<unknown>(null);
  const [confirmed, setConfirmed] = useState(callback.kind === 'oauth');
  // Leaves the return for a console screen; on the web the callback's query goes and the screen's address takes
  // its place (the desktop app's page address never held it).
  const leave = useCallback((to: Route) => {
    if (platformKind === 'web') history.replaceState(null, '', `/console/${routeHash(to)}`);
    navigate(to);
    onDone();
  }, [platformKind, onDone]);
  useEffect(() => {
    if (!confirmed) return;
    if (finishing?.callback !== callback) finishing = { callback, done: finish(app, callback, connectionId) };
    finishing.done.then(
      () => leave(takeReturnRoute(sessionStorage, connectionId)),
      (e: unknown) => setError(e),
    );
  }, [app, callback, connectionId, leave, confirmed]);
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
              <Anchor component="button" type="button" onClick={() => leave(signIn)}>{t('callback.tryAgain')}</Anchor>
            </Stack>
          </Alert>
        )}
      </Stack>
    </ConsoleShell>
  );
}
