// {handler}/sign-in: the sign-in screen; a signed-in user sees the "already signed in" card and is sent on.
import { SignIn } from '../components/auth-page';

export function SignInPage() {
  return <SignIn automaticRedirect />;
}
