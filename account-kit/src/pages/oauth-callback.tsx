// {handler}/oauth-callback: finishes the OAuth flow once (client-library §5.3, §5.4); the client library stores
// the tokens, removes code and state from the address bar and redirects.
import { useEffect, useState } from 'react';
import { Anchor, Center, Loader, Stack, Text } from '@mantine/core';
import { useGatehouseApp, useTranslate } from '../context';
import { ErrorMessage } from '../components/error-message';
import { AuthCard } from '../components/message-card';
import { registerEnglish } from '../messages';
import { enPages } from '../messages/en-pages';

registerEnglish(enPages);

// Guards against React running the effect twice (strict mode) or a re-mount consuming the callback again.
let started = false;

export function OAuthCallbackPage() {
  const app = useGatehouseApp();
  const t = useTranslate();
  const [error, setError] = useState<unknown>(null);
  const [slow, setSlow] = useState(false);

  useEffect(() => {
    const timer = setTimeout(() => setSlow(true), 3000);
    if (!started) {
      started = true;
      (async () => {
        let redirected = false;
        try {
          redirected = await app.callOAuthCallback();
        } catch (err) {
          setError(err);
        }
        if (!redirected) await app.redirectToSignIn({ noRedirectBack: true });
      })();
    }
    return () => clearTimeout(timer);
  }, [app]);

  return (
    <AuthCard>
      <Stack align="center" gap="md" role="status">
        {error ? (
          <>
            <Text fw={600}>{t('oauthCallback.errorTitle')}</Text>
            {/* §5.4 shows the error as JSON; the kit shows the catalogue's text for its code, and the code. */}
            <Text size="sm" ta="center" data-testid="oauth-callback-error"><ErrorMessage error={error} /></Text>
            <Text size="sm" c="dimmed">{t('oauthCallback.errorHint')}</Text>
          </>
        ) : (
          <>
            <Center><Loader aria-label={t('oauthCallback.redirecting')} /></Center>
            <Text>{t('oauthCallback.redirecting')}</Text>
          </>
        )}
        {slow && (
          <Text size="sm">
            {t('oauthCallback.notRedirected')}
            <Anchor href={app.urls.home}>{t('oauthCallback.clickHere')}</Anchor>
          </Text>
        )}
      </Stack>
    </AuthCard>
  );
}
