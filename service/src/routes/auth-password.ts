// Password sign-up, sign-in, update and set (protocol-auth §3.1). Reset by code lives in auth-password-reset.ts.
import { ACCESS_TYPES, STACK_HEADERS } from '@gatehouse/shared/constants';
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import { getPasswordError } from '@gatehouse/shared/rules/password';
import { Success } from '@gatehouse/shared/schemas/common';
import { PasswordSetBody, PasswordSignInBody, PasswordSignUpBody, PasswordUpdateBody, SignInTokens } from '@gatehouse/shared/schemas/auth';
import { route } from '../http/route';
import type { Project } from '../repo/projects';
import * as users from '../repo/users';
import * as sessions from '../repo/sessions';
import { createUser } from '../users/create';
import { completeSignIn } from '../auth/sign-in';
import { sendChannelVerificationEmail } from '../auth/verification-email';
import { byEmailAndIp, byIp, limitFailuresReading, limitRequestsReading } from '../auth/rate-limits';
import { assertRecentSignIn } from '../auth/recent-sign-in';
import { assertNotCommonPassword } from '../auth/common-passwords';
import { invalidateResetCodes } from '../repo/verification-codes';
import { queueNotice, sendQueuedNotices } from '../auth/security-notices';


function assertPasswordAuthEnabled(project: Project) {
  if (!project.config.credential_enabled) throw new KnownErrors.PasswordAuthenticationNotEnabled();
}

async function assertPasswordAcceptable(password: string) {
  const error = getPasswordError(password);
  if (error) throw error;
  await assertNotCommonPassword(password);
}

export const passwordRoutes = [
  route({
    method: 'POST', path: '/auth/password/sign-up', summary: 'Sign up with email and password', tags: ['Password'],
    access: [...ACCESS_TYPES],
    body: PasswordSignUpBody,
    response: SignInTokens,
    async handler({ services, auth, body, origin, ip }) {
      const project = auth.project;
      assertPasswordAuthEnabled(project);
      await assertPasswordAcceptable(body.password);
      if (!project.config.sign_up_enabled) throw new KnownErrors.SignUpNotEnabled();
      // Counted with the lookup (one statement): the "already exists" answer is not a free oracle, nor sign-up a free
      // mass action.
      const owner = await limitRequestsReading(services, [byIp(ip, 'sign_up_ip', project.id)], {
        carried: users.authEmailOwnerRead, values: { projectId: project.id, email: body.email },
        alone: () => users.authEmailOwner(services.db, project.id, body.email),
      });
      if (owner) throw new KnownErrors.UserEmailAlreadyExists(body.email);
      const passwordHash = await services.passwords.hash(body.password);
      const { user, channel } = await services.db.transaction((tx) =>
        createUser(services.events, tx, project, { primaryEmail: body.email, primaryEmailAuthEnabled: true, passwordHash }, { emailCheckedFree: true }));
      // The verification email is best effort: its failures (e.g. an untrusted callback) never fail the sign-up.
      if (body.verification_callback_url && channel) {
        void sendChannelVerificationEmail(services, project, { userId: user.id, channelId: channel.id, email: body.email, callbackUrl: body.verification_callback_url })
          .catch((err) => console.error(`[sign-up] the verification email to a new user of project ${project.id} was not queued:`, err));
      }
      // A new user has no second factor: no MFA step to look up.
      const tokens = await completeSignIn(services, { projectId: project.id, userId: user.id, isNewUser: true, origin, hasTotp: false });
      return { access_token: tokens.access_token, refresh_token: tokens.refresh_token, user_id: tokens.user_id };
    },
  }),
  route({
    method: 'POST', path: '/auth/password/sign-in', summary: 'Sign in with email and password', tags: ['Password'],
    access: [...ACCESS_TYPES],
    body: PasswordSignInBody,
    response: SignInTokens,
    async handler({ services, auth, body, origin, ip }) {
      const project = auth.project;
      assertPasswordAuthEnabled(project);
      // Failed attempts are limited per IP and per account from that IP (auth/rate-limits.ts): a guesser elsewhere
      // cannot lock the owner out.
      const limits = [byIp(ip, 'sign_in_ip', project.id), byEmailAndIp(ip, 'sign_in_account', project.id, body.email)];
      // The account's lookup rides in the rate-limit hit's statement: one round trip fewer beside the hash.
      const read = {
        carried: users.signInFactsRead, values: { projectId: project.id, email: body.email },
        alone: () => users.passwordSignInFactsRow(services.db, project.id, body.email),
      };
      const tokens = await limitFailuresReading(services, limits, read, async (row, refund) => {
        const found = users.signInFactsOf(row);
        const hash = found?.passwordHash;
        const checked = hash ? await services.passwords.check(body.password, hash) : { ok: await services.passwords.verifyAgainstNothing(body.password), rehash: false };
        if (!found || !checked.ok) throw new KnownErrors.EmailPasswordMismatch();
        // Imported bcrypt hashes (and older forms) become argon2id of the NFKC password now that it is at hand.
        if (checked.rehash) await users.setPasswordHash(services.db, project.id, found.userId, await services.passwords.hash(body.password));
        return completeSignIn(services, { projectId: project.id, userId: found.userId, isNewUser: false, origin, hasTotp: found.hasTotp, refund });
      });
      return { access_token: tokens.access_token, refresh_token: tokens.refresh_token, user_id: tokens.user_id };
    },
  }),
  route({
    method: 'POST', path: '/auth/password/update', summary: "Change the signed-in user's password", tags: ['Password'],
    access: [...ACCESS_TYPES],
    body: PasswordUpdateBody,
    response: Success,
    async handler({ services, auth, body, headers, requireUser, userRequiredError }) {
      const user = await requireUser(userRequiredError);
      assertPasswordAuthEnabled(auth.project);
      await assertPasswordAcceptable(body.new_password);
      const hash = await users.passwordHash(services.db, auth.project.id, user.id);
      if (!hash) throw new KnownErrors.UserDoesNotHavePassword();
      if (!(await services.passwords.verify(body.old_password, hash))) throw new KnownErrors.PasswordConfirmationMismatch();
      const newHash = await services.passwords.hash(body.new_password);
      // Every other session ends; the one whose refresh token came with the request survives.
      const refreshToken = headers.get(STACK_HEADERS.refreshToken);
      const keep = refreshToken ? await sessions.findByRefreshToken(services.db, auth.project.id, refreshToken) : null;
      await services.db.transaction(async (tx) => {
        await users.setPasswordHash(tx, auth.project.id, user.id, newHash);
        await sessions.revokeAllForUser(tx, auth.project.id, user.id, keep?.userId === user.id ? keep.id : undefined);
        await invalidateResetCodes(tx, auth.project.id, user.id);
        await queueNotice(tx, services, auth.project, { userId: user.id, type: 'password_changed', extra: {} });
      });
      sendQueuedNotices(services);
      await services.revokedSessions.sync();
      return { success: true as const };
    },
  }),
  route({
    method: 'POST', path: '/auth/password/set', summary: 'Set a password for a signed-in user who has none', tags: ['Password'],
    access: [...ACCESS_TYPES],
    body: PasswordSetBody,
    response: Success,
    async handler({ services, auth, body, requireUser, userRequiredError }) {
      const user = await requireUser(userRequiredError);
      assertPasswordAuthEnabled(auth.project);
      await assertPasswordAcceptable(body.password);
      if (await users.passwordHash(services.db, auth.project.id, user.id)) throw new StatusError(400, 'User already has a password set.');
      // A first password is a new way in: with a stolen token it would be a permanent one.
      await assertRecentSignIn(services, auth);
      const hash = await services.passwords.hash(body.password);
      await services.db.transaction(async (tx) => {
        await users.setPasswordHash(tx, auth.project.id, user.id, hash);
        await invalidateResetCodes(tx, auth.project.id, user.id);
        await queueNotice(tx, services, auth.project, { userId: user.id, type: 'password_changed', extra: {} });
      });
      sendQueuedNotices(services);
      return { success: true as const };
    },
  }),
];

