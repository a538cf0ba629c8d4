// {handler}/sign-out: signs out, then "You are not currently signed in.".
import { useGatehouseApp, useTranslate } from '../context';
import { MessageCard } from '../components/message-card';
import { useOnce } from '../hooks/use-once';
import { registerEnglish } from '../messages';
import { enPages } from '../messages/en-pages';

registerEnglish(enPages);

export function SignOutPage() {
  const app = useGatehouseApp();
  const t = useTranslate();
  const state = useOnce('sign-out', () => app.signOut());
  if (state.status === 'pending') return <MessageCard title={t('signOut.signingOut')} role="status" />;
  return <MessageCard title={t('signOut.done')} role="status" primaryAction={{ label: t('common.goHome'), onClick: () => void app.redirectToHome() }} />;
}
