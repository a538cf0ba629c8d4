// <SignIn> and <SignUp>: exactly the methods the project enables (from useProject), or the "already signed in"
// card for a signed-in user (which, on handler pages, also sends them on to the after-sign-in/up page).
import { lazy, useEffect, useState } from 'react';
import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useGatehouseApp, useTranslate } from '../context';
import { useProject } from '../hooks/use-project';
import { useUser } from '../hooks/use-user';
import { useSsoEnabled } from '../hooks/use-sso';
import { authMethods } from '../lib/sign-in-methods';
import { describeAuthError } from '../lib/error-messages';
import { FormError } from './form-error';
import { CredentialSignIn } from './credential-sign-in';
import { CredentialSignUp } from './credential-sign-up';
import { AuthCard, MessageCard } from './message-card';
import { AuthSkeleton } from './auth-skeleton';
import { LoadBoundary } from './load-boundary';

// What a project adds to the password form loads when it enables it: the OAuth and passkey buttons (with the
// providers' logos), the email-code form and the tabs between it and the password form are lazy chunks, so a page
// with the password form only doesn't load them. They suspend into the screen's skeleton (SignIn/SignUp's
// LoadBoundary), so the page still appears at once, complete.
const AuthButtons = lazy(() => import('./auth-buttons').then((m) => ({ default: m.AuthButtons })));
const MagicLinkForm = lazy(() => import('./magic-link-form').then((m) => ({ default: m.MagicLinkForm })));
const AuthMethodTabs = lazy(() => import('./auth-method-tabs').then((m) => ({ default: m.AuthMethodTabs })));
const SsoSignIn = lazy(() => import('./sso-sign-in').then((m) => ({ default: m.SsoSignIn })));

export interface AuthPageProps {
  type: 'sign-in' | 'sign-up';
  /** Redirect a signed-in user to after-sign-in/up (what the handler pages do). */
  automaticRedirect?: boolean;
}

export function AuthPage({ type, automaticRedirect }: AuthPageProps) {
  const app = useGatehouseApp();
  const t = useTranslate();
  const user = useUser();
  const project = useProject();
  const ssoEnabled = useSsoEnabled();
  const [ssoStep, setSsoStep] = useState(false);

  // A refused target (an untrusted after_auth_return_to) leaves the person here, told why.
  const [redirectError, setRedirectError] = useState<string | null>(null);
  useEffect(() => {
    if (!user || !automaticRedirect) return;
    const redirect = type === 'sign-in' ? app.redirectToAfterSignIn({ replace: true }) : app.redirectToAfterSignUp({ replace: true });
    redirect.catch((err: unknown) => {
      const { key, values } = describeAuthError(err);
      setRedirectError(t(key, values));
    });
  }, [user, automaticRedirect, type, app, t]);

  if (user) {
    return (
      <MessageCard
        title={t('alreadySignedIn.title')}
        primaryAction={{ label: t('common.goHome'), onClick: () => void app.redirectToHome() }}
        secondaryAction={{ label: t('alreadySignedIn.signOut'), onClick: () => void user.signOut() }}
      >
        <Stack gap="sm">
          <Text ta="center" c="dimmed">{t('alreadySignedIn.text')}</Text>
          <FormError message={redirectError} />
        </Stack>
      </MessageCard>
    );
  }

  const methods = authMethods(project.config, type);
  if (methods.signUpDisabled) {
    return (
      <MessageCard title={t('signUp.disabled')} primaryAction={{ label: t('common.signIn'), onClick: () => void app.redirectToSignIn() }} />
    );
  }
  const hasForms = methods.password || methods.magicLink;
  const hasButtons = methods.oauthProviders.length > 0 || methods.passkey;
  const isSignIn = type === 'sign-in';
  if (isSignIn && ssoStep) {
    return <AuthCard><SsoSignIn onBack={() => setSsoStep(false)} /></AuthCard>;
  }

  return (
    <AuthCard>
      <Stack gap="md">
        <Stack gap={4} align="center">
          <Title order={1} size="h3" ta="center">{t(isSignIn ? 'signIn.title' : 'signUp.title')}</Title>
          {(isSignIn ? project.config.signUpEnabled : true) && (
            <Text size="sm" c="dimmed" ta="center">
              {t(isSignIn ? 'signIn.noAccount' : 'signUp.haveAccount')}{' '}
              <Anchor
                href={isSignIn ? app.urls.signUp : app.urls.signIn}
                onClick={(e) => { e.preventDefault(); void (isSignIn ? app.redirectToSignUp() : app.redirectToSignIn()); }}
              >
                {t(isSignIn ? 'common.signUp' : 'common.signIn')}
              </Anchor>
            </Text>
          )}
        </Stack>
        {methods.none && <Text c="dimmed" ta="center">{t('signIn.noMethods')}</Text>}
        {isSignIn && ssoEnabled && <Button variant="default" fullWidth onClick={() => setSsoStep(true)}>{t('sso.continue')}</Button>}
        {hasButtons && <AuthButtons oauthProviders={methods.oauthProviders} passkey={methods.passkey} type={type} divider={hasForms} />}
        {methods.password && methods.magicLink ? (
          <AuthMethodTabs type={type} />
        ) : methods.password ? (
          isSignIn ? <CredentialSignIn /> : <CredentialSignUp />
        ) : methods.magicLink ? (
          <MagicLinkForm />
        ) : null}
      </Stack>
    </AuthCard>
  );
}

/** The sign-in screen, with its own loading skeleton and error state (a host can place it on any page). */
export function SignIn(props: Omit<AuthPageProps, 'type'>) {
  return <LoadBoundary fallback={<AuthSkeleton />}><AuthPage type="sign-in" {...props} /></LoadBoundary>;
}

/** The sign-up screen, with its own loading skeleton and error state. */
export function SignUp(props: Omit<AuthPageProps, 'type'>) {
  return <LoadBoundary fallback={<AuthSkeleton />}><AuthPage type="sign-up" {...props} /></LoadBoundary>;
}
