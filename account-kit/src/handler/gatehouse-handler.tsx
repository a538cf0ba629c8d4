// <GatehouseHandler>: every page of client-library §6.1, chosen from the current location under the handler
// path. No router dependency: it reads `window.location` (or the `location` prop) and navigates through the
// app's redirect method. Sign-in and sign-up are in the main bundle; every other page is a lazy chunk.
import { lazy, useEffect, useSyncExternalStore, type ComponentType, type LazyExoticComponent } from 'react';
import { Box, Center, Loader } from '@mantine/core';
import { stackAppInternalsSymbol } from '@gatehouse/shared/client';
import { useGatehouseApp, useTranslate } from '../context';
import { AuthSkeleton } from '../components/auth-skeleton';
import { LoadBoundary } from '../components/load-boundary';
import { MessageCard } from '../components/message-card';
import { FullPageBox } from '../components/full-page-box';
import { SignInPage } from '../pages/sign-in';
import { SignUpPage } from '../pages/sign-up';
import { resolveHandlerRoute, type HandlerPage } from './routes';

const LAZY_PAGES: Partial<Record<HandlerPage, LazyExoticComponent<ComponentType>>> = {
  'sign-out': lazy(() => import('../pages/sign-out').then((m) => ({ default: m.SignOutPage }))),
  'email-verification': lazy(() => import('../pages/email-verification').then((m) => ({ default: m.EmailVerificationPage }))),
  'password-reset': lazy(() => import('../pages/password-reset').then((m) => ({ default: m.PasswordResetPage }))),
  'forgot-password': lazy(() => import('../pages/forgot-password').then((m) => ({ default: m.ForgotPasswordPage }))),
  'oauth-callback': lazy(() => import('../pages/oauth-callback').then((m) => ({ default: m.OAuthCallbackPage }))),
  'magic-link-callback': lazy(() => import('../pages/magic-link-callback').then((m) => ({ default: m.MagicLinkCallbackPage }))),
  'team-invitation': lazy(() => import('../pages/team-invitation').then((m) => ({ default: m.TeamInvitationPage }))),
  error: lazy(() => import('../pages/error').then((m) => ({ default: m.ErrorPage }))),
  'cli-auth-confirm': lazy(() => import('../pages/cli-auth-confirm').then((m) => ({ default: m.CliAuthConfirmPage }))),
  'oauth-consent': lazy(() => import('../pages/oauth-consent').then((m) => ({ default: m.OAuthConsentPage }))),
  'account-settings': lazy(() => import('../settings/account-settings').then((m) => ({ default: m.AccountSettingsPage }))),
};

export interface GatehouseHandlerProps {
  /** The current path and query (e.g. from your router); default: `window.location`. */
  location?: string;
  /** Fill the viewport and centre the page (default true). */
  fullPage?: boolean;
}

function subscribeToHistory(cb: () => void) {
  window.addEventListener('popstate', cb);
  return () => window.removeEventListener('popstate', cb);
}
const windowLocation = () => window.location.pathname + window.location.search;

export function GatehouseHandler({ location, fullPage = true }: GatehouseHandlerProps) {
  const app = useGatehouseApp();
  const t = useTranslate();
  const current = useSyncExternalStore(subscribeToHistory, windowLocation, () => location ?? '/');
  const { pathname, search } = new URL(location ?? current, 'https://handler.invalid');
  const route = resolveHandlerRoute({ pathname, search }, app.urls);
  const inIframe = typeof window !== 'undefined' && window.self !== window.top;

  useEffect(() => {
    if (route.kind === 'redirect' && !inIframe) void app[stackAppInternalsSymbol].navigate(route.to, { replace: true });
  }, [route.kind, route.kind === 'redirect' ? route.to : '', app, inIframe]);

  let content;
  if (inIframe) content = <MessageCard title={t('handler.iframe')} role="alert" />;
  else if (route.kind === 'redirect') content = <Center><Loader aria-label={t('common.loading')} /></Center>;
  else if (route.kind === 'not-found') {
    content = (
      <MessageCard title={t('handler.notFoundTitle')} primaryAction={{ label: t('common.goToHome'), onClick: () => void app.redirectToHome() }}>
        {t('handler.notFoundText')}
      </MessageCard>
    );
  } else if (route.page === 'sign-in') content = <SignInPage />;
  else if (route.page === 'sign-up') content = <SignUpPage />;
  else {
    const Page = LAZY_PAGES[route.page]!;
    content = <LoadBoundary fallback={<AuthSkeleton />}><Page /></LoadBoundary>;
  }
  const wide = route.kind === 'page' && route.page === 'account-settings';
  if (!fullPage || wide) return <Box w="100%">{content}</Box>;
  return (
    // The viewport below the host's header, not 100dvh on top of it: a short page does not scroll (issue 25's looks).
    <FullPageBox component="main" px="sm" py="xl" style={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'center' }}>
      <Box w="100%" maw={440} mt={{ base: 0, sm: '8vh' }}>{content}</Box>
    </FullPageBox>
  );
}
