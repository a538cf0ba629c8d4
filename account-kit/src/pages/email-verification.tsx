// {handler}/email-verification: confirm, then verify the code of the link (POST /contact-channels/verify).
import { useState } from 'react';
import { useGatehouseApp, useTranslate } from '../context';
import { MessageCard } from '../components/message-card';
import { codeFromSearch, codeProblem } from '../lib/verification';
import { registerEnglish } from '../messages';
import { enPages } from '../messages/en-pages';

registerEnglish(enPages);

type State = 'confirm' | 'busy' | 'done' | 'invalid' | 'expired';

export function EmailVerificationPage({ search = window.location.search }: { search?: string }) {
  const app = useGatehouseApp();
  const t = useTranslate();
  const code = codeFromSearch(search);
  const [state, setState] = useState<State>(code ? 'confirm' : 'invalid');
  const goHome = { label: t('common.goHome'), onClick: () => void app.redirectToHome() };

  const verify = async () => {
    setState('busy');
    const result = await app.verifyEmail(code!);
    if (result.status === 'ok') return setState('done');
    const problem = codeProblem(result.error);
    // A link used twice is still a verified address.
    setState(problem === 'used' ? 'done' : problem === 'expired' ? 'expired' : 'invalid');
  };

  if (state === 'invalid') return <MessageCard title={t('verify.invalidTitle')} role="alert" primaryAction={goHome}>{t('verify.invalidText')}</MessageCard>;
  if (state === 'expired') return <MessageCard title={t('verify.expiredTitle')} role="alert" primaryAction={goHome}>{t('verify.expiredText')}</MessageCard>;
  if (state === 'done') return <MessageCard title={t('verify.successTitle')} role="status" primaryAction={goHome}>{t('verify.successText')}</MessageCard>;
  return (
    <MessageCard
      title={t('verify.confirmTitle')}
      primaryAction={{ label: t('verify.confirm'), onClick: () => void verify() }}
      secondaryAction={{ label: t('common.cancel'), onClick: () => void app.redirectToHome() }}
    />
  );
}
