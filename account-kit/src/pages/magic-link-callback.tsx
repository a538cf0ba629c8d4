// {handler}/magic-link-callback: confirm, then sign in with the link's code (POST /auth/otp/sign-in).
import { useState } from 'react';
import { useGatehouseApp, useTranslate } from '../context';
import { MessageCard } from '../components/message-card';
import { useUser } from '../hooks/use-user';
import { codeFromSearch, codeProblem } from '../lib/verification';
import { describeAuthError } from '../lib/error-messages';
import { registerEnglish } from '../messages';
import { enPages } from '../messages/en-pages';

registerEnglish(enPages);

type State = 'confirm' | 'busy' | 'done' | 'invalid' | 'expired' | 'used' | { error: string };

export function MagicLinkCallbackPage({ search = window.location.search }: { search?: string }) {
  const app = useGatehouseApp();
  const t = useTranslate();
  const user = useUser();
  const code = codeFromSearch(search);
  const [state, setState] = useState<State>(code ? 'confirm' : 'invalid');
  const goHome = { label: t('common.goHome'), onClick: () => void app.redirectToHome() };

  const signIn = async () => {
    setState('busy');
    const result = await app.signInWithMagicLink(code!);
    if (result.status === 'ok') return setState('done');
    const problem = codeProblem(result.error);
    setState(problem === 'unknown' ? { error: t(describeAuthError(result.error).key) } : problem);
  };

  if (state === 'done') return <MessageCard title={t('magicLinkPage.successTitle')} role="status" primaryAction={goHome}>{t('magicLinkPage.successText')}</MessageCard>;
  if (user && (state === 'confirm' || state === 'invalid')) {
    return <MessageCard title={t('alreadySignedIn.title')} primaryAction={goHome}>{t('alreadySignedIn.text')}</MessageCard>;
  }
  if (state === 'invalid') return <MessageCard title={t('magicLinkPage.invalidTitle')} role="alert" primaryAction={goHome}>{t('magicLinkPage.invalidText')}</MessageCard>;
  if (state === 'expired') return <MessageCard title={t('magicLinkPage.expiredTitle')} role="alert" primaryAction={goHome}>{t('magicLinkPage.expiredText')}</MessageCard>;
  if (state === 'used') return <MessageCard title={t('magicLinkPage.usedTitle')} role="alert" primaryAction={goHome}>{t('magicLinkPage.usedText')}</MessageCard>;
  if (typeof state === 'object') return <MessageCard title={t('errorPage.genericTitle')} role="alert" primaryAction={goHome}>{state.error}</MessageCard>;
  return (
    <MessageCard
      title={t('magicLinkPage.confirmTitle')}
      primaryAction={{ label: t('common.signIn'), onClick: () => void signIn() }}
      secondaryAction={{ label: t('common.cancel'), onClick: () => void app.redirectToHome() }}
    />
  );
}
