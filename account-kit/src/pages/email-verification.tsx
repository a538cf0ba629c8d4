// {handler}/email-verification: confirm, then verify the code of the link (POST /contact-channels/verify).
import { useState } from 'react';
import { useGatehouseApp, useTranslate } from '../context';
import { MessageCard } from '../components/message-card';
import { codeFromSearch, codeProblem } from '../lib/verification';
import { registerEnglish } from '../messages';
import { enPages } from '../messages/en-pages';

registerEnglish(enPages);

type State = 'confirm' | 'busy' | 'done' | 'invalid' | 'expired' | 'used';

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
    // A reused link says so (issue 25): the success card again would claim a verification that did not happen now.
    setState(problem === 'used' ? 'used' : problem === 'expired' ? 'expired' : 'invalid');
  };

  if (state === 'invalid') return <MessageCard title={t('verify.invalidTitle')} role="alert" primaryAction={goHome}>{t('verify.invalidText')}</MessageCard>;
  if (state === 'expired') return <MessageCard title={t('verify.expiredTitle')} role="alert" primaryAction={goHome}>{t('verify.expiredText')}</MessageCard>;
  if (state === 'used') return <MessageCard title={t('verify.usedTitle')} role="alert" primaryAction={goHome}>{t('verify.usedText')}</MessageCard>;
  if (state === 'done') return <MessageCard title={t('verify.successTitle')} role="status" primaryAction={goHome}>{t('verify.successText')}</MessageCard>;
  return (
    <MessageCard
      title={t('verify.confirmTitle')}
      primaryAction={{ label: t('verify.confirm'), onClick: () => void verify() }}
      secondaryAction={{ label: t('common.cancel'), onClick: () => void app.redirectToHome() }}
    />
  );
}
