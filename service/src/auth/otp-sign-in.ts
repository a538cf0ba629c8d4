// OTP / magic-link sign-in (protocol-auth §3.2). One 45-character code serves both: the link carries it whole,
// the mail shows its first 6 characters upper-cased (the OTP), and the caller keeps the other 39 (the nonce).
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import { generateSecureCode, splitOtp } from '@gatehouse/shared/rules/codes';
import type { Services } from '../services';
import type { Project } from '../repo/projects';
import * as users from '../repo/users';
import { updateUserColumns } from '../repo/user-writes';
import { createUser } from '../users/create';
import type { ClientOrigin } from './activity';
import { assertTrustedCallback, createCodeAndQueueEmail, limitCodeSending, redeemFlowCode } from './flow-emails';
import type { IssuedTokens } from './session-tokens';
import { completeSignIn } from './sign-in';
import { assertSsoNotRequired } from '../sso/required-domains';

interface OtpData { user_id?: string; is_new_user: boolean }

export interface OtpSend {
  project: Project;
  email: string;
  callbackUrl: string;
  /** The magic-link template version the client's SDK expects (`magicLinkTemplateVersion` of @gatehouse/shared/email-templates). */
  magicLinkVersion: 1 | 2;
  ip: string;
}

/** Mails a sign-in code (a sign-up code for a new address); returns the nonce the caller keeps. */
export async function sendOtpSignInCode(services: Services, input: OtpSend): Promise<string> {
  const { project, email } = input;
  if (!project.config.magic_link_enabled) throw new StatusError(403, 'Magic link is not enabled for this project');
  assertSsoNotRequired(project.id, email);
  // Limits before the lookup (ASVS 11.1.2): its answers (an unverified address exists) are not a free oracle.
  assertTrustedCallback(project, input.callbackUrl);
  await limitCodeSending(services, input.ip, project, email);
  // An address whose account is unverified is answered as an unknown one (issue 30 §4): a 409 here told anyone that it
  // has an account. Its code is a sign-up code, and redeeming it meets the account that holds the address:
  // USER_EMAIL_ALREADY_EXISTS (protocol-auth §3.2) then, to someone who has shown they read the mailbox. Signing
  // them into that account instead would hand it over with a password someone else may have set.
  const found = await users.findByAuthEmail(services.db, project.id, email);
  const owner = found?.isVerified ? found : undefined;
  if (!owner && !project.config.sign_up_enabled) throw new KnownErrors.SignUpNotEnabled();
  // An address a client added to an account and has not verified receives no code at all (README: "a stolen access
  // token is not a takeover"), like the password reset's: the answer is the same, the nonce leads nowhere.
  if (found && !found.usableForAuth) return splitOtp(generateSecureCode()).nonce;
  const data: OtpData = owner ? { user_id: owner.userId, is_new_user: false } : { is_new_user: true };
  const code = await createCodeAndQueueEmail(services, project, {
    template: 'magic_link', to: email, callbackUrl: input.callbackUrl,
    method: { email, type: 'email' }, data: { ...data },
    variables: (c) => ({ otp: splitOtp(c).otp }),
    magicLinkVersion: input.magicLinkVersion,
  });
  return splitOtp(code).nonce;
}

/** Is the sign-in code valid (counted like a redemption, not used up)? */
export async function checkOtpCode(services: Services, input: { project: Project; code: string; ip: string }): Promise<void> {
  await redeemFlowCode(services, input.ip, input.project, { type: 'one_time_password', code: input.code, consume: false });
}

/** Redeems the code: signs the user in, or signs a new one up. */
export async function signInWithOtp(services: Services, input: { project: Project; code: string; origin: ClientOrigin }): Promise<{ tokens: IssuedTokens; isNewUser: boolean }> {
  const { project, origin } = input;
  let tokens: IssuedTokens | undefined;
  let isNewUser = false;
  await redeemFlowCode(services, origin.ip, project, { type: 'one_time_password', code: input.code, consume: true }, async (row) => {
    const data = row.data as OtpData;
    const email = (row.method as { email: string }).email;
    isNewUser = data.is_new_user;
    let userId: string;
    if (data.is_new_user) {
      // Sign-up may have been switched off since the code was sent.
      if (!project.config.sign_up_enabled) throw new KnownErrors.SignUpNotEnabled();
      const { user } = await createUser(services, { project, user: { primaryEmail: email, primaryEmailVerified: true, primaryEmailAuthEnabled: true, otpAuthEnabled: true } });
      userId = user.id;
    } else {
      const user = data.user_id ? await users.load(services.db, project.id, data.user_id) : null;
      if (!user) throw new KnownErrors.UserNotFound();
      userId = user.id;
      // Proving control of the sign-in email adds the OTP method (account merge), only now that it is proven.
      if (!user.otp_auth_enabled) await updateUserColumns(services.db, project.id, userId, { otpAuthEnabled: true });
    }
    // A new user has no second factor: no MFA step to look up.
    tokens = await completeSignIn(services, { project, userId, isNewUser, origin, ...(isNewUser ? { hasTotp: false } : {}) });
  });
  return { tokens: tokens!, isNewUser };
}
