// {handler}/oauth-consent?interaction=…: an application asks to sign the person in with this project (the project's
// OpenID provider sent them here). A signed-out person signs in first and comes back; then the page names the
// application and what it asks for, with Allow and Deny. A consent given before is answered at once.
import { useEffect, useState } from 'react';
import { Avatar, Button, Center, Group, List, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslate } from '../context';
import { AuthCard, MessageCard } from '../components/message-card';
import { AuthSkeleton } from '../components/auth-skeleton';
import { ErrorMessage } from '../components/error-message';
import { useUser } from '../hooks/use-user';
import { useOnce } from '../hooks/use-once';
import { interactionIdOf, scopeKey } from '../lib/oauth-consent';
import { registerEnglish } from '../messages';
import { enPages } from '../messages/en-pages';

registerEnglish(enPages);

export function OAuthConsentPage({ search = window.location.search }: { search?: string }) {
  const t = useTranslate();
  const user = useUser({ or: 'redirect' });
  const interactionId = interactionIdOf(search);
  const request = useOnce(interactionId ? `oauth-consent:${user.id}:${interactionId}` : null, () => user.getOAuthProviderRequest(interactionId!));
  const [answer, setAnswer] = useState<'none' | 'sending' | { error: unknown }>('none');

  const send = async (allow: boolean) => {
    setAnswer('sending');
    try {
      window.location.assign(await user.answerOAuthProviderRequest(interactionId!, allow));
    } catch (error) {
      setAnswer({ error });
    }
  };
  const remembered = request.status === 'done' && request.value.consent_remembered;
  useEffect(() => {
    if (remembered && answer === 'none') void send(true);
  }, [remembered]);

  if (!interactionId) return <MessageCard title={t('oauthConsent.failedTitle')} role="alert">{t('oauthConsent.missingRequest')}</MessageCard>;
  const failure = request.status === 'failed' ? request.error : typeof answer === 'object' ? answer.error : null;
  if (failure) {
    return (
      <MessageCard title={t('oauthConsent.failedTitle')} role="alert">
        <Text ta="center" c="dimmed">{t('oauthConsent.failedText')} <ErrorMessage error={failure} /></Text>
      </MessageCard>
    );
  }
  if (request.status !== 'done') return <AuthSkeleton />;
  if (remembered || answer === 'sending') {
    return <AuthCard><Center><Loader aria-label={t('oauthConsent.redirecting')} /></Center></AuthCard>;
  }
  const { client_display_name: client, client_logo_url: logo, scopes, scope_descriptions: descriptions } = request.value;
  return (
    <AuthCard>
      <Stack gap="md">
        {logo && <Center><Avatar src={logo} alt={t('oauthConsent.logo', { client })} size="lg" radius="md" /></Center>}
        <Title order={2} size="h3" ta="center">{t('oauthConsent.title', { client })}</Title>
        <Text c="dimmed">{t('oauthConsent.text', { client })}</Text>
        <List spacing="xs" aria-label={t('oauthConsent.text', { client })}>
          {scopes.map((scope) => {
            const key = scopeKey(scope);
            // A project's own scope is shown as the project describes it (its settings), as its name is shown.
            return <List.Item key={scope}>{key ? t(key) : (descriptions[scope] ?? scope)}</List.Item>;
          })}
        </List>
        {user.primaryEmail && <Text size="sm" c="dimmed">{t('oauthConsent.signedInAs', { email: user.primaryEmail })}</Text>}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => void send(false)}>{t('oauthConsent.deny')}</Button>
          <Button onClick={() => void send(true)}>{t('oauthConsent.allow')}</Button>
        </Group>
      </Stack>
    </AuthCard>
  );
}
