// Callback step 5 (protocol-auth §3.6.2): which user the provider account belongs to — the linking user, the
// user already connected to it, an existing user by email (merge strategy), or a new user. Runs in the
// callback's transaction.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { DB } from '../db';
import type { Project } from '../repo/projects';
import * as users from '../repo/users';
import * as accounts from '../repo/oauth-accounts';
import { createUserIn } from '../users/create';
import type { Events } from '../events';
import type { ProviderUserInfo } from './providers';
import { assertSsoNotRequired } from '../sso/required-domains';

export interface ResolvedAccount {
  userId: string;
  isNewUser: boolean;
}

export async function resolveAccount(
  events: Events,
  tx: DB,
  project: Project,
  p: { providerId: string; info: ProviderUserInfo; type: 'authenticate' | 'link'; linkUserId: string | null },
): Promise<ResolvedAccount> {
  const { providerId, info } = p;
  // An address whose organization requires SSO signs in through it, not through a social provider.
  if (p.type === 'authenticate') assertSsoNotRequired(project.id, info.email);
  const existing = await accounts.findAccount(tx, project.id, providerId, info.accountId);

  if (p.type === 'link' && p.linkUserId) {
    if (existing && existing.userId !== p.linkUserId) throw new KnownErrors.OAuthConnectionAlreadyConnectedToAnotherUser();
    // Linking connects the account (for access tokens); it adds no sign-in method.
    if (!existing) {
      await accounts.insertAccount(tx, { projectId: project.id, providerId, providerAccountId: info.accountId, userId: p.linkUserId, email: info.email, usedForAuth: false });
    }
    return { userId: p.linkUserId, isNewUser: false };
  }

  if (existing) {
    if (info.email && info.email !== existing.email) await accounts.updateAccountEmail(tx, project.id, providerId, info.accountId, info.email);
    return { userId: existing.userId, isNewUser: false };
  }

  if (!project.config.sign_up_enabled) throw new KnownErrors.SignUpNotEnabled();

  let emailUsedForAuth = info.email !== null;
  if (info.email) {
    const owner = await users.findByAuthEmail(tx, project.id, info.email);
    if (owner) {
      const strategy = project.config.oauth_account_merge_strategy;
      if (strategy === 'raise_error' || (strategy === 'link_method' && !(owner.isVerified && info.emailVerified))) {
        throw new KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse('email', info.email);
      }
      if (strategy === 'link_method') {
        await accounts.insertAccount(tx, { projectId: project.id, providerId, providerAccountId: info.accountId, userId: owner.userId, email: info.email, usedForAuth: true });
        return { userId: owner.userId, isNewUser: false };
      }
      emailUsedForAuth = false; // allow_duplicates: a separate user whose copy of the address does not sign in
    }
  }

  const { user } = await createUserIn(tx, events, { project, user: {
    displayName: info.displayName,
    profileImageUrl: info.profileImageUrl,
    primaryEmail: info.email,
    primaryEmailVerified: info.emailVerified,
    primaryEmailAuthEnabled: emailUsedForAuth,
    oauthAccounts: [{ providerId, accountId: info.accountId, email: info.email, usedForAuth: true }],
  } });
  return { userId: user.id, isNewUser: true };
}
