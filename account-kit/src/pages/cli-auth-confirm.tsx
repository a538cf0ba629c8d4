// {handler}/cli-auth-confirm: a signed-in user authorises a command-line login.
import { useState } from 'react';
import { useGatehouseApp, useTranslate } from '../context';
import { ErrorMessage } from '../components/error-message';
import { MessageCard } from '../components/message-card';
import { useUser } from '../hooks/use-user';
import { completeCliLogin } from '../lib/cli-auth';
import { registerEnglish } from '../messages';
import { enPages } from '../messages/en-pages';

registerEnglish(enPages);

export function CliAuthConfirmPage({ search = window.location.search }: { search?: string }) {
  const app = useGatehouseApp();
  const t = useTranslate();
  const user = useUser({ or: 'redirect' });
  const [state, setState] = useState<'ask' | 'busy' | 'done' | { missingCode: true } | { error: unknown }>('ask');

  const authorize = async () => {
    const loginCode = new URLSearchParams(search).get('login_code');
    if (!loginCode) return setState({ missingCode: true });
    setState('busy');
    try {
      await completeCliLogin(app, user, loginCode);
      setState('done');
    } catch (err) {
      setState({ error: err });
    }
  };

  if (state === 'done') return <MessageCard title={t('cli.successTitle')} role="status">{t('cli.successText')}</MessageCard>;
  if (typeof state === 'object') {
    return (
      <MessageCard title={t('cli.failedTitle')} role="alert" primaryAction={{ label: t('common.tryAgain'), onClick: () => setState('ask') }}>
        {t('cli.failedText')} {'error' in state ? <ErrorMessage error={state.error} /> : t('cli.missingCode')}
      </MessageCard>
    );
  }
  return (
    <MessageCard
      title={t('cli.title')}
      primaryAction={{ label: t('cli.authorize'), onClick: () => void authorize() }}
      secondaryAction={{ label: t('common.cancel'), onClick: () => window.close() }}
    >
      {t('cli.text')}
    </MessageCard>
  );
}
