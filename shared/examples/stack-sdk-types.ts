// Code written against the types of Stack Auth's SDK (2.8.3), compiled against ours: `tsc -p shared/tsconfig.json`
// (run by `npm test`) checks this file. The `@ts-expect-error` lines fail that check if a result's error type
// stops being the precise union the SDK documents (client-library §1.4.2).
import { StackAdminApp, StackClientApp, StackServerApp, type CurrentInternalUser } from '../src/client/index.ts';
import { KnownErrors } from '../src/known-errors.ts';

// The SDK's generics: <HasTokenStore, ProjectId>.
export function makeApps(): [StackClientApp<true, string>, StackServerApp<true, string>, StackAdminApp<false, 'my-project'>] {
  const client = new StackClientApp({ projectId: 'my-project', publishableClientKey: 'pck', tokenStore: 'cookie' });
  const server = new StackServerApp({ projectId: 'my-project', publishableClientKey: 'pck', secretServerKey: 'ssk', tokenStore: 'memory' });
  const admin = new StackAdminApp({ projectId: 'my-project', superSecretAdminKey: 'sak', tokenStore: null });
  return [client, server, admin];
}

/** An app of the internal project: its users own projects. */
export async function ownedProjects(app: StackClientApp<true, 'internal'>): Promise<number> {
  const user: CurrentInternalUser | null = await app.getUser();
  return user ? (await user.listOwnedProjects()).length : 0;
}

export async function signIn(app: StackClientApp<true>, email: string, password: string): Promise<string> {
  const result = await app.signInWithCredential({ email, password, noRedirect: true });
  if (result.status === 'error') {
    const error: KnownErrors['EmailPasswordMismatch'] | KnownErrors['InvalidTotpCode'] = result.error;
    // @ts-expect-error a sign-in never returns USER_NOT_FOUND: the union is exactly the two errors above
    const notThis: KnownErrors['UserNotFound'] = result.error;
    void notThis;
    if (error instanceof KnownErrors.InvalidTotpCode) return 'mfa code wrong';
    return error.errorCode; // 'EMAIL_PASSWORD_MISMATCH'
  }
  const user = await app.getUser({ or: 'throw' });
  const tokens = await user.currentSession.getTokens(); // async, as in the SDK
  return tokens.accessToken ?? '';
}

export async function signUp(app: StackClientApp, email: string, password: string): Promise<string | null> {
  const result = await app.signUpWithCredential({ email, password });
  if (result.status === 'ok') return null;
  // PasswordRequirementsNotMet includes its subclasses (PASSWORD_TOO_SHORT, ...).
  switch (result.error.errorCode) {
    case 'USER_EMAIL_ALREADY_EXISTS':
      return 'taken';
    case 'PASSWORD_TOO_SHORT':
    case 'PASSWORD_TOO_LONG':
      return 'length';
    // @ts-expect-error not an error a sign-up returns
    case 'EMAIL_PASSWORD_MISMATCH':
      return 'impossible';
    default:
      return result.error.message;
  }
}

export async function resetPassword(app: StackClientApp, code: string, password: string): Promise<boolean> {
  const result = await app.resetPassword({ code, password });
  if (result.status === 'error') {
    const expired = result.error instanceof KnownErrors.VerificationCodeExpired;
    return !expired;
  }
  return true;
}
