// {handler}/sign-in: the sign-in screen; a signed-in user sees the "already signed in" card and is sent on. With
// `?sso_connection_id=` (where Gatehouse sends an IdP-initiated SAML sign-in), it starts that SSO sign-in at once.
import { useEffect } from 'react';
import { useGatehouseApp } from '../context';
import { ssoConnectionToStart } from '../lib/sso-start';
import { SignIn } from '../components/auth-page';

export function SignInPage() {
  const app = useGatehouseApp();
  useEffect(() => {
    const connectionId = ssoConnectionToStart(window.location.search);
    if (connectionId) void app.signInWithSso({ connectionId });
  }, [app]);
  return <SignIn automaticRedirect />;
}
