// {handler}/error: what went wrong before an OAuth callback (or elsewhere), read from the URL.
import { Stack, Text } from '@mantine/core';
import { useGatehouseApp, useTranslate } from '../context';
import { MessageCard } from '../components/message-card';
import { readErrorPage } from '../lib/error-page';
import { registerEnglish } from '../messages';
import { enPages } from '../messages/en-pages';

registerEnglish(enPages);

export function ErrorPage({ search = window.location.search }: { search?: string }) {
  const app = useGatehouseApp();
  const t = useTranslate();
  const content = readErrorPage(search);
  const goHome = { label: t('common.goToHome'), onClick: () => void app.redirectToHome() };
  switch (content.kind) {
    case 'connect-failed':
      return (
        <MessageCard title={t('errorPage.connectFailedTitle')} role="alert" primaryAction={goHome}>
          {t(content.alreadyConnected ? 'errorPage.alreadyConnectedText' : 'errorPage.connectFailedText')}
        </MessageCard>
      );
    case 'access-denied':
      return (
        <MessageCard
          title={t('errorPage.accessDeniedTitle')}
          role="alert"
          primaryAction={{ label: t('errorPage.signInAgain'), onClick: () => void app.redirectToSignIn() }}
          secondaryAction={goHome}
        >
          {t('errorPage.accessDeniedText')}
        </MessageCard>
      );
    case 'generic':
      return (
        <MessageCard title={t('errorPage.genericTitle')} role="alert" primaryAction={goHome}>
          <Stack gap={4}>
            {/* Codes and messages come from the address: long unbroken words must not push the card wider. */}
            <Text ta="center" style={{ overflowWrap: 'anywhere' }}>{t('errorPage.code', { code: content.code })}</Text>
            <Text ta="center" c="dimmed" style={{ overflowWrap: 'anywhere' }}>{t('errorPage.message', { message: content.message })}</Text>
          </Stack>
        </MessageCard>
      );
    default:
      return <MessageCard title={t('errorPage.unknownTitle')} role="alert" primaryAction={goHome}>{t('errorPage.unknownText')}</MessageCard>;
  }
}
