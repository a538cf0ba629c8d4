// {handler}/team-invitation: sign in first, check the code (memoised), show the team's name, Join / Ignore.
import { useState } from 'react';
import { useGatehouseApp, useTranslate } from '../context';
import { AuthSkeleton } from '../components/auth-skeleton';
import { MessageCard } from '../components/message-card';
import { useUser } from '../hooks/use-user';
import { codeFromSearch, codeProblem } from '../lib/verification';
import { useOnce } from '../hooks/use-once';
import { registerEnglish } from '../messages';
import { enPages } from '../messages/en-pages';

registerEnglish(enPages);

export function TeamInvitationPage({ search = window.location.search }: { search?: string }) {
  const app = useGatehouseApp();
  const t = useTranslate();
  const user = useUser();
  const code = codeFromSearch(search);
  const goHome = { label: t('common.goHome'), onClick: () => void app.redirectToHome() };

  if (!code) return <MessageCard title={t('invite.invalidTitle')} role="alert" primaryAction={goHome}>{t('invite.invalidText')}</MessageCard>;
  if (!user) {
    return (
      <MessageCard
        title={t('invite.signInTitle')}
        primaryAction={{ label: t('common.signIn'), onClick: () => void app.redirectToSignIn() }}
        secondaryAction={{ label: t('common.cancel'), onClick: () => void app.redirectToHome() }}
      >
        {t('invite.signInText')}
      </MessageCard>
    );
  }
  return <Invitation code={code} userId={user.id} />;
}

function Invitation({ code, userId }: { code: string; userId: string }) {
  const app = useGatehouseApp();
  const t = useTranslate();
  const goHome = { label: t('common.goHome'), onClick: () => void app.redirectToHome() };
  const details = useOnce(`invite:${userId}:${code}`, async () => {
    const check = await app.verifyTeamInvitationCode(code);
    if (check.status === 'error') return check;
    return app.getTeamInvitationDetails(code);
  });
  const [joined, setJoined] = useState<'no' | 'busy' | 'yes' | 'failed'>('no');

  if (details.status === 'pending') return <AuthSkeleton />;
  if (details.status === 'failed' || details.value.status === 'error') {
    const problem = details.status === 'done' && details.value.status === 'error' ? codeProblem(details.value.error) : 'unknown';
    if (problem === 'expired') return <MessageCard title={t('invite.expiredTitle')} role="alert" primaryAction={goHome}>{t('invite.expiredText')}</MessageCard>;
    if (problem === 'used') return <MessageCard title={t('invite.usedTitle')} role="alert" primaryAction={goHome}>{t('invite.usedText')}</MessageCard>;
    if (problem === 'invalid') return <MessageCard title={t('invite.invalidTitle')} role="alert" primaryAction={goHome}>{t('invite.invalidText')}</MessageCard>;
    return <MessageCard title={t('invite.unknownTitle')} role="alert" primaryAction={goHome} />;
  }
  const team = (details.value.data as { teamDisplayName: string }).teamDisplayName;
  if (joined === 'failed') return <MessageCard title={t('invite.unknownTitle')} role="alert" primaryAction={goHome} />;
  if (joined === 'yes') return <MessageCard title={t('invite.joinedText', { team })} role="status" primaryAction={goHome} />;
  const join = async () => {
    setJoined('busy');
    const result = await app.acceptTeamInvitation(code).catch(() => null);
    setJoined(result?.status === 'ok' ? 'yes' : 'failed');
  };
  return (
    <MessageCard
      title={t('invite.invitedText', { team })}
      primaryAction={{ label: t('invite.join'), onClick: () => void join() }}
      secondaryAction={{ label: t('invite.ignore'), onClick: () => void app.redirectToHome() }}
    />
  );
}
