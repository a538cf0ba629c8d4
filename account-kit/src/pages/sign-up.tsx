// {handler}/sign-up: the sign-up screen, or "Sign up for new users is not enabled at the moment.".
import { SignUp } from '../components/auth-page';

export function SignUpPage() {
  return <SignUp automaticRedirect />;
}
