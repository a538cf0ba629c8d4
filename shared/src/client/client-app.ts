// GatehouseClientApp (= StackClientApp): the browser/public-key app (client-library §1.4).
import type { KnownErrors, KnownError, KnownErrorInFamily } from '../known-errors.ts';
import type { AccessType, RequestInitLite } from './api-client.ts';
import {
  buildCore,
  defaultClientExtraHeaders,
  requireProjectId,
  requirePublishableKey,
  type GatehouseClientAppOptions,
} from './app-options.ts';
import type { CachedRead } from './cache.ts';
import type { ClientCore, CurrentUserJson, MfaPrompt } from './core.ts';
import { withMfa, type SignInTokensJson } from './mfa.ts';
import { cachedReadsSymbol, inFamily } from './models/common.ts';
import { hasCode } from './known-error-catalogue.ts';
import type { CurrentInternalUser, CurrentUser } from './models/current-user.ts';
import { createProject, type Project } from './models/projects.ts';
import type { PasskeySignInError } from './passkey.ts';
import type { HandlerUrls, RedirectToOptions } from './redirects.ts';
import { Result } from './result.ts';
import type { InternalSession } from './session.ts';
import type { TokenPair, TokenStoreInit } from './token-store.ts';
import type {
  ClientProjectJson,
  CodeBody,
  EmptyBody,
  IsCodeValidJson,
  OtpNonceJson,
  OtpSendBody,
  PasswordResetBody,
  PasswordResetSendBody,
  PasswordSignInBody,
  PasswordSignUpBody,
  SignInTokensJson as SignInAnswer,
  SignInTokensWithNewUserJson,
  SsoDiscoveryJson,
  SsoStatusJson,
  TeamInvitationCheckJson,
  TeamInvitationCodeBody,
  TeamInvitationDetailsJson,
} from './wire.ts';
import type { UserJson } from './models/user-base.ts';

export const stackAppInternalsSymbol = Symbol.for('StackAuth--DO-NOT-USE-OR-YOU-WILL-BE-FIRED--StackAppInternals');

export type GetUserOr = 'return-null' | 'redirect' | 'throw' | 'anonymous' | 'anonymous-if-exists';
export type GetUserOptions = { or?: GetUserOr; tokenStore?: TokenStoreInit };

export interface ClientAppReads<U> {
  /** The signed-in user of the store's current session (re-derive after `onTokensChange`). */
  currentUser(options?: { tokenStore?: TokenStoreInit; includeAnonymous?: boolean }): CachedRead<U | null>;
  project(): CachedRead<Project>;
  /** Fires when the tokens of the store change (sign-in/out, refresh, another tab). */
  onTokensChange(cb: (tokens: TokenPair) => void, options?: { tokenStore?: TokenStoreInit }): () => void;
  /**
   * Puts a session kept elsewhere (the desktop console's refresh token, kept by its main process) into the app's
   * 'memory' store. An explicit `{ accessToken, refreshToken }` store is read-only per call, as in the SDK: a sign-in
   * into it is kept nowhere.
   */
  restoreTokens(tokens: TokenPair): void;
}

/** The errors a flow returns rather than throws, as precise as the SDK's (client-library §1.4.2). */
type VerificationCodeError = KnownErrorInFamily<'VERIFICATION_ERROR'>;
type PasswordRequirementsNotMet = KnownErrorInFamily<'PASSWORD_REQUIREMENTS_NOT_MET'>;

// The signed-in user's model (current-user.ts, with teams, API keys, contact channels, connected accounts and owned
// projects) is a chunk of its own, so a page without a signed-in user (a sign-in page) doesn't load it. The core
// loads it together with the user's JSON (ClientCore.loadUserModel), so `_createUser` finds it loaded.
let currentUserModel: typeof import('./models/current-user.ts') | undefined;
async function loadCurrentUserModel(): Promise<void> {
  currentUserModel ??= await import('./models/current-user.ts');
}

/** The project as a client reads it: one cache per app, refreshed by the admin app when it changes the project. */
export function clientProjectCache(core: ClientCore) {
  return core.cache('project', (_: []) => core.json<ClientProjectJson>('/projects/current', {}, null, 'client'));
}

/** The current-user type `U` of an app: `CurrentUser`, `CurrentInternalUser` (internal project) or `CurrentServerUser`. */
export type SessionUser = { readonly id: string; signOut(options?: { redirectUrl?: string }): Promise<void> };

export class GatehouseClientApp<U extends SessionUser = CurrentUser> {
  /** @internal */
  readonly _core: ClientCore;
  /** @internal the access type used for the current-user view */
  protected readonly _userAccess: AccessType = 'client';
  #anonymousSignUp: Promise<void> | null = null;

  constructor(options: GatehouseClientAppOptions);
  /** @internal used by subclasses and owned-project apps */
  constructor(options: GatehouseClientAppOptions, core: ClientCore);
  constructor(options: GatehouseClientAppOptions, core?: ClientCore) {
    this._core =
      core ??
      buildCore(
        options,
        { projectId: requireProjectId(options.projectId), publishableClientKey: requirePublishableKey(options.publishableClientKey) },
        options.extraRequestHeaders ?? defaultClientExtraHeaders(),
      );
    this._core.loadUserModel = loadCurrentUserModel;
  }

  get projectId(): string {
    return this._core.projectId;
  }

  get urls(): HandlerUrls {
    return this._core.urls;
  }

  /** @internal builds the user object for a session's JSON (server apps override). */
  protected _createUser(session: InternalSession, json: CurrentUserJson<AccessType>): U {
    if (!currentUserModel) throw new Error('The current-user model must load before a user object is built');
    // The client view: /users/me answered for the `client` access type (server apps override this method).
    return currentUserModel.createCurrentUser({ core: this._core, session }, json as UserJson) as unknown as U;
  }

  #userRead(session: InternalSession, includeAnonymous: boolean): CachedRead<U | null> {
    return this._core.currentUserCache(this._userAccess).handle([session], `user:${includeAnonymous}`, (json) =>
      json && (includeAnonymous || !json.is_anonymous) ? this._createUser(session, json) : null,
    );
  }

  readonly [cachedReadsSymbol]: ClientAppReads<U> = {
    currentUser: (options) => this.#userRead(this._core.getSession(this._core.requireTokenStore(options?.tokenStore)), !!options?.includeAnonymous),
    project: () => clientProjectCache(this._core).handle([], 'project', createProject),
    onTokensChange: (cb, options) => this._core.requireTokenStore(options?.tokenStore).onChange((v) => cb(v)),
    restoreTokens: (tokens) => this._core.requireTokenStore().set(tokens),
  };

  /** §1.4.1 decision table. */
  async getUser(options: GetUserOptions & { or: 'redirect' | 'throw' | 'anonymous' }): Promise<U>;
  async getUser(options?: GetUserOptions): Promise<U | null>;
  async getUser(options?: GetUserOptions): Promise<U | null> {
    const store = this._core.requireTokenStore(options?.tokenStore);
    const session = this._core.getSession(store);
    const or = options?.or ?? 'return-null';
    const includeAnonymous = or === 'anonymous' || or === 'anonymous-if-exists';
    const user = await this.#userRead(session, includeAnonymous).get();
    if (user) return user;
    switch (or) {
      case 'redirect':
        await this._core.redirector.redirectTo('signIn', { replace: true });
        return null;
      case 'throw':
        throw new Error("User is not signed in but getUser was called with { or: 'throw' }");
      case 'anonymous': {
        const tokens = await this.#signUpAnonymously();
        const anonymous = await this.getUser({ tokenStore: tokens, or: 'anonymous-if-exists' });
        if (!anonymous) throw new Error('Something went wrong while signing up anonymously');
        return anonymous;
      }
      default:
        return null;
    }
  }

  /** Single flight per app; stores the tokens in the app's store and returns them. */
  async #signUpAnonymously(): Promise<TokenPair> {
    this.#anonymousSignUp ??= (async () => {
      const json = await this._core.json<SignInAnswer, EmptyBody>('/auth/anonymous/sign-up', { method: 'POST', body: {} }, null, 'client');
      this._core.signInWithTokens({ accessToken: json.access_token, refreshToken: json.refresh_token });
    })().finally(() => {
      this.#anonymousSignUp = null;
    });
    await this.#anonymousSignUp;
    return this._core.requireTokenStore().get();
  }

  async getProject(): Promise<Project> {
    return this[cachedReadsSymbol].project().get();
  }

  // The OAuth and passkey flows load when first used: a sign-in page shows without them (smaller first load).
  // The callback's synchronous part (§5.3) still runs without yielding once its module is there.
  async signInWithOAuth(provider: string): Promise<never> {
    const { startOAuthFlow } = await import('./oauth.ts');
    return startOAuthFlow(this._core, { type: 'authenticate', provider });
  }

  /**
   * Signs in through the SSO of the team whose verified domain the address is at (issue 28): the browser goes to
   * the organization's identity provider and comes back to the oauth-callback page. Find out first with
   * `getSsoConnectionForEmail` whether the address has one.
   */
  async signInWithSso(options: { email: string } | { connectionId: string }): Promise<never> {
    const { startOAuthFlow } = await import('./oauth.ts');
    return startOAuthFlow(this._core, { type: 'sso', ...options });
  }

  /** Whether the project offers sign-in through a team's SSO (it has an enabled connection). */
  async isSsoEnabled(): Promise<boolean> {
    const status = await this._core.json<SsoStatusJson, undefined>('/auth/sso/status', { method: 'GET' }, null, 'client');
    return status.enabled;
  }

  /** The SSO connection an address signs in with, and whether its domain requires it; null when it has none. */
  async getSsoConnectionForEmail(email: string): Promise<SsoDiscoveryJson | null> {
    return Result.catching(
      () => this._core.json<SsoDiscoveryJson, undefined>(`/auth/sso/discover?email=${encodeURIComponent(email)}`, { method: 'GET' }, null, 'client'),
      hasCode('SSO_NOT_CONFIGURED'),
    ).then((r) => (r.status === 'ok' ? r.data : null));
  }

  async callOAuthCallback(): Promise<boolean> {
    const { callOAuthCallback } = await import('./oauth.ts');
    return callOAuthCallback(this._core);
  }

  async #finishSignIn(tokens: SignInTokensJson, noRedirect: boolean | undefined): Promise<void> {
    this._core.signInWithTokens({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
    if (!noRedirect) await this._core.redirector.redirectTo(tokens.is_new_user ? 'afterSignUp' : 'afterSignIn', { replace: true });
  }

  async signInWithCredential(options: { email: string; password: string; noRedirect?: boolean }): Promise<Result<undefined, KnownErrors['EmailPasswordMismatch'] | KnownErrors['InvalidTotpCode']>> {
    this._core.requireTokenStore();
    return Result.catching(async () => {
      const tokens = await withMfa(this._core, () =>
        this._core.json<SignInAnswer, PasswordSignInBody>('/auth/password/sign-in', { method: 'POST', body: { email: options.email, password: options.password } }, null, 'client'),
      );
      await this.#finishSignIn({ ...tokens, is_new_user: false }, options.noRedirect);
      return undefined;
    }, hasCode('EMAIL_PASSWORD_MISMATCH', 'INVALID_TOTP_CODE'));
  }

  async signUpWithCredential(options: { email: string; password: string; noRedirect?: boolean; verificationCallbackUrl?: string }): Promise<Result<undefined, KnownErrors['UserEmailAlreadyExists'] | PasswordRequirementsNotMet>> {
    this._core.requireTokenStore();
    const callback =
      options.verificationCallbackUrl ?? this._core.redirector.constructRedirectUrl(this._core.urls.emailVerification, 'verificationCallbackUrl');
    const matches = (err: unknown): err is KnownErrors['UserEmailAlreadyExists'] | PasswordRequirementsNotMet =>
      hasCode('USER_EMAIL_ALREADY_EXISTS')(err) || inFamily('PASSWORD_REQUIREMENTS_NOT_MET')(err);
    return Result.catching(async () => {
      const tokens = await this._core.json<SignInAnswer, PasswordSignUpBody>('/auth/password/sign-up', {
        method: 'POST',
        body: { email: options.email, password: options.password, verification_callback_url: callback },
      }, null, 'client');
      await this.#finishSignIn({ ...tokens, is_new_user: true }, options.noRedirect);
      return undefined;
    }, matches);
  }

  async signInWithMagicLink(code: string, options?: { noRedirect?: boolean }): Promise<Result<undefined, VerificationCodeError | KnownErrors['InvalidTotpCode']>> {
    this._core.requireTokenStore();
    return Result.catching(async () => {
      const tokens = await withMfa(this._core, () =>
        this._core.json<SignInTokensWithNewUserJson, CodeBody>('/auth/otp/sign-in', { method: 'POST', body: { code } }, null, 'client'),
      );
      await this.#finishSignIn(tokens, options?.noRedirect);
      return undefined;
    }, (err): err is VerificationCodeError | KnownErrors['InvalidTotpCode'] => inFamily('VERIFICATION_ERROR')(err) || hasCode('INVALID_TOTP_CODE')(err));
  }

  async signInWithPasskey(): Promise<Result<undefined, PasskeySignInError>> {
    this._core.requireTokenStore();
    const { passkeySignInTokens } = await import('./passkey.ts');
    const result = await passkeySignInTokens(this._core);
    if (result.status === 'error') return result;
    this._core.signInWithTokens({ accessToken: result.data.access_token, refreshToken: result.data.refresh_token });
    await this._core.redirector.redirectTo('afterSignIn', { replace: true });
    return Result.ok(undefined);
  }

  async sendMagicLinkEmail(email: string, options?: { callbackUrl?: string }): Promise<Result<{ nonce: string }, KnownErrors['RedirectUrlNotWhitelisted']>> {
    const callbackUrl = options?.callbackUrl ?? this._core.redirector.constructRedirectUrl(this._core.urls.magicLinkCallback, 'callbackUrl');
    return Result.catching(
      () =>
        this._core
          .json<OtpNonceJson, OtpSendBody>('/auth/otp/send-sign-in-code', { method: 'POST', body: { email, callback_url: callbackUrl } }, null, 'client')
          .then((j) => ({ nonce: j.nonce })),
      hasCode('REDIRECT_URL_NOT_WHITELISTED'),
    );
  }

  async sendForgotPasswordEmail(email: string, options?: { callbackUrl?: string }): Promise<Result<undefined, KnownErrors['UserNotFound']>> {
    const callbackUrl = options?.callbackUrl ?? this._core.redirector.constructRedirectUrl(this._core.urls.passwordReset, 'callbackUrl');
    return Result.catching(
      () =>
        this._core
          .json<unknown, PasswordResetSendBody>('/auth/password/send-reset-code', { method: 'POST', body: { email, callback_url: callbackUrl } }, null, 'client')
          .then(() => undefined),
      hasCode('USER_NOT_FOUND'),
    );
  }

  /** A call redeeming or checking a code: a verification error is returned, not thrown. */
  #codeCall<T>(call: () => Promise<T>): Promise<Result<T, VerificationCodeError>> {
    return Result.catching(call, inFamily('VERIFICATION_ERROR'));
  }

  #post<Res, Body>(path: string, body: NoInfer<Body>, session: InternalSession | null): Promise<Res> {
    return this._core.json<Res, Body>(path, { method: 'POST', body }, session, 'client');
  }

  verifyPasswordResetCode(code: string): Promise<Result<undefined, VerificationCodeError>> {
    return this.#codeCall(() => this.#post<IsCodeValidJson, CodeBody>('/auth/password/reset/check-code', { code }, null).then(() => undefined));
  }

  resetPassword(options: { code: string; password: string }): Promise<Result<undefined, VerificationCodeError>> {
    return this.#codeCall(() =>
      this.#post<unknown, PasswordResetBody>('/auth/password/reset', { code: options.code, password: options.password }, null).then(() => undefined),
    );
  }

  async verifyEmail(code: string): Promise<Result<undefined, VerificationCodeError>> {
    const result = await this.#codeCall(() => this.#post<unknown, CodeBody>('/contact-channels/verify', { code }, null).then(() => undefined));
    if (this._core.hasPersistentTokenStore()) {
      const session = this._core.defaultSession();
      await this._core.refreshCurrentUser(session);
      const { contactChannelsCache } = await import('./models/contact-channels.ts');
      await contactChannelsCache({ core: this._core, session }).refreshWhere(([s]) => s === session);
    }
    return result;
  }

  verifyTeamInvitationCode(code: string): Promise<Result<TeamInvitationCheckJson, VerificationCodeError>> {
    return this.#codeCall(() => this.#post<TeamInvitationCheckJson, TeamInvitationCodeBody>('/team-invitations/accept/check-code', { code }, this._core.defaultSession()));
  }

  acceptTeamInvitation(code: string): Promise<Result<undefined, VerificationCodeError>> {
    return this.#codeCall(() =>
      this.#post<unknown, TeamInvitationCodeBody>('/team-invitations/accept', { code }, this._core.defaultSession()).then(() => undefined),
    );
  }

  getTeamInvitationDetails(code: string): Promise<Result<{ teamDisplayName: string }, VerificationCodeError>> {
    return this.#codeCall(() =>
      this.#post<TeamInvitationDetailsJson, TeamInvitationCodeBody>('/team-invitations/accept/details', { code }, this._core.defaultSession()).then((j) => ({
        teamDisplayName: j.team_display_name,
      })),
    );
  }

  /** Signs out the current (non-anonymous) user, if any. */
  async signOut(options?: { redirectUrl?: string }): Promise<void> {
    const user = await this.getUser();
    if (user) await user.signOut(options);
  }

  redirectToSignIn = (o?: RedirectToOptions) => this._core.redirector.redirectTo('signIn', o);
  redirectToSignUp = (o?: RedirectToOptions) => this._core.redirector.redirectTo('signUp', o);
  redirectToSignOut = (o?: RedirectToOptions) => this._core.redirector.redirectTo('signOut', o);
  redirectToEmailVerification = (o?: RedirectToOptions) => this._core.redirector.redirectTo('emailVerification', o);
  redirectToPasswordReset = (o?: RedirectToOptions) => this._core.redirector.redirectTo('passwordReset', o);
  redirectToForgotPassword = (o?: RedirectToOptions) => this._core.redirector.redirectTo('forgotPassword', o);
  redirectToHome = (o?: RedirectToOptions) => this._core.redirector.redirectTo('home', o);
  redirectToOAuthCallback = (o?: RedirectToOptions) => this._core.redirector.redirectTo('oauthCallback', o);
  redirectToMagicLinkCallback = (o?: RedirectToOptions) => this._core.redirector.redirectTo('magicLinkCallback', o);
  redirectToAfterSignIn = (o?: RedirectToOptions) => this._core.redirector.redirectTo('afterSignIn', o);
  redirectToAfterSignUp = (o?: RedirectToOptions) => this._core.redirector.redirectTo('afterSignUp', o);
  redirectToAfterSignOut = (o?: RedirectToOptions) => this._core.redirector.redirectTo('afterSignOut', o);
  redirectToAccountSettings = (o?: RedirectToOptions) => this._core.redirector.redirectTo('accountSettings', o);
  redirectToError = (o?: RedirectToOptions) => this._core.redirector.redirectTo('error', o);
  redirectToTeamInvitation = (o?: RedirectToOptions) => this._core.redirector.redirectTo('teamInvitation', o);

  get [stackAppInternalsSymbol]() {
    return {
      /** Raw API call with this app's keys and the default session. */
      sendRequest: (path: string, init: RequestInitLite = {}, type: AccessType = 'client') =>
        this._core.api.sendRequest(path, init, this._core.defaultSession(), type),
      /**
       * Seeds the current-user cache of the app's session with the user JSON (or null) a server rendered, as
       * 2.8.3's provider does with a promise: hooks wait for it instead of fetching. Plain values are accepted too.
       */
      setCurrentUser: (userJson: Promise<unknown> | unknown): Promise<void> =>
        this._core.currentUserCache(this._userAccess).setAsync(
          [this._core.defaultSession()],
          // What the server read from /users/me with this app's access type, handed over as is.
          Promise.all([userJson, this._core.loadUserModel()]).then(([json]) => json as CurrentUserJson<AccessType> | null),
        ),
      /**
       * Installs the TOTP prompt of a UI layer (the account kit's dialog) for sign-ins that need MFA; an
       * `mfaPrompt` given to the constructor still wins. Returns the function that removes it again.
       */
      setUiMfaPrompt: (prompt: MfaPrompt): (() => void) => {
        this._core.uiMfaPrompt = prompt;
        return () => {
          if (this._core.uiMfaPrompt === prompt) this._core.uiMfaPrompt = undefined;
        };
      },
      /** Navigates with the app's redirect method (no trust check: for targets the caller built itself). */
      navigate: (url: string, options?: { replace?: boolean }): Promise<void> =>
        this._core.redirector.navigate(url, { replace: !!options?.replace }),
      toClientJson: () => ({
        baseUrl: this._core.api.baseUrl,
        projectId: this.projectId,
        publishableClientKey: this._core.api.options.publishableClientKey,
        tokenStore: typeof this._core.options.tokenStore === 'string' ? this._core.options.tokenStore : null,
        urls: this.urls,
      }),
    };
  }
}

/** The SDK's name for the same class. */
export const StackClientApp = GatehouseClientApp;
/**
 * The SDK's generics: `StackClientApp<HasTokenStore, ProjectId>`. Whether a token store was given is not tracked
 * in the type here (every app may be given one per call); the `internal` project's users also own projects.
 */
export type StackClientApp<HasTokenStore extends boolean = boolean, ProjectId extends string = string> =
  GatehouseClientApp<ProjectId extends 'internal' ? CurrentInternalUser : CurrentUser> & { readonly __hasTokenStore?: HasTokenStore };
