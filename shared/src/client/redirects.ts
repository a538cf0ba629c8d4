// Handler URLs (client-library §1.3), redirect helpers (§6.2, §6.3) and absolute callback URLs (§6.4).
import { isRelativeUrl, UntrustedRedirectError } from '../rules/urls.ts';
import { AFTER_AUTH_RETURN_TO_PARAM, REDIRECT_WAIT_MS } from './constants.ts';
import type { BrowserEnvironment } from './environment.ts';
import type { ClientTimers } from './timers.ts';

export type HandlerUrls = {
  handler: string;
  home: string;
  signIn: string;
  signUp: string;
  signOut: string;
  afterSignIn: string;
  afterSignUp: string;
  afterSignOut: string;
  emailVerification: string;
  passwordReset: string;
  forgotPassword: string;
  oauthCallback: string;
  magicLinkCallback: string;
  accountSettings: string;
  teamInvitation: string;
  error: string;
};

export type RedirectMethod =
  | 'window'
  | 'nextjs'
  | 'none'
  | { useNavigate: () => (to: string) => void; navigate?: (to: string) => void };

export type RedirectToOptions = { replace?: boolean; noRedirectBack?: boolean };

/** Defaults derived from the given `handler`; explicitly given keys win, undefined entries are ignored. */
export function resolveHandlerUrls(given: Partial<HandlerUrls> | undefined): HandlerUrls {
  const defined = Object.fromEntries(Object.entries(given ?? {}).filter(([, v]) => v !== undefined)) as Partial<HandlerUrls>;
  const handler = defined.handler ?? '/handler';
  const home = defined.home ?? '/';
  const afterSignIn = defined.afterSignIn ?? home;
  return {
    handler,
    home,
    signIn: `${handler}/sign-in`,
    signUp: `${handler}/sign-up`,
    signOut: `${handler}/sign-out`,
    afterSignIn,
    afterSignUp: defined.afterSignUp ?? afterSignIn,
    afterSignOut: home,
    emailVerification: `${handler}/email-verification`,
    passwordReset: `${handler}/password-reset`,
    forgotPassword: `${handler}/forgot-password`,
    oauthCallback: `${handler}/oauth-callback`,
    magicLinkCallback: `${handler}/magic-link-callback`,
    accountSettings: `${handler}/account-settings`,
    teamInvitation: `${handler}/team-invitation`,
    error: `${handler}/error`,
    ...defined,
  };
}

export class Redirector {
  constructor(
    readonly method: RedirectMethod,
    readonly browser: BrowserEnvironment | null,
    readonly timers: ClientTimers,
    readonly urls: () => HandlerUrls,
  ) {}

  /** The current page, or null outside a browser. */
  currentUrl(): URL | null {
    return this.browser ? new URL(this.browser.location.href) : null;
  }

  /** §6.2: resolve the target, carry `after_auth_return_to`, require a relative URL, navigate, settle. */
  async redirectTo(key: keyof HandlerUrls, options: RedirectToOptions = {}): Promise<void> {
    let url = this.urls()[key];
    if (url === undefined) throw new Error(`No URL for handler name ${key}`);
    const current = this.currentUrl();
    if (!options.noRedirectBack && current) {
      const returnTo = current.searchParams.get(AFTER_AUTH_RETURN_TO_PARAM);
      if (key === 'afterSignIn' || key === 'afterSignUp') {
        if (returnTo !== null) url = returnTo;
      } else if (key === 'signIn' || key === 'signUp') {
        const target = new URL(url, current);
        if (returnTo !== null) target.searchParams.set(AFTER_AUTH_RETURN_TO_PARAM, returnTo);
        else if (target.protocol === current.protocol && target.host === current.host) {
          target.searchParams.set(AFTER_AUTH_RETURN_TO_PARAM, current.pathname + current.search + current.hash);
        }
        url = target.pathname + target.search + target.hash;
      }
    }
    if (!isRelativeUrl(url)) throw new UntrustedRedirectError(url);
    await this.navigate(url, { replace: !!options.replace });
  }

  /** The navigation started and not yet settled: a second one to the same URL joins it. */
  private pending: { url: string; settled: Promise<void> } | null = null;

  /**
   * Navigates without the trust check, then waits 2 s unless the method is "none". A navigation to the URL already
   * being navigated to is not started again: a sign-in redirects, and the sign-in page, seeing the new user, asks for
   * the same redirect; the second page load aborted the first one mid-flight.
   */
  async navigate(url: string, { replace }: { replace: boolean }): Promise<void> {
    const m = this.method;
    if (m === 'none') return;
    if (this.pending?.url === url) return this.pending.settled;
    if (typeof m === 'object' && m.navigate) m.navigate(url);
    else if (this.browser) {
      if (replace) this.browser.location.replace(url);
      else this.browser.location.assign(url);
    } else {
      return;
    }
    const settled = this.timers.sleep(REDIRECT_WAIT_MS).finally(() => {
      if (this.pending?.settled === settled) this.pending = null;
    });
    this.pending = { url, settled };
    await settled;
  }

  /** §6.4: absolute URL for a callback sent to the server; keeps `after_auth_return_to`, drops the fragment. */
  constructRedirectUrl(url: string | undefined, optionName: string): string {
    const current = this.currentUrl();
    if (!current) throw new Error(`${optionName} option is required in a non-browser environment.`);
    const result = new URL(url ?? '', current);
    const returnTo = current.searchParams.get(AFTER_AUTH_RETURN_TO_PARAM);
    if (returnTo !== null) result.searchParams.set(AFTER_AUTH_RETURN_TO_PARAM, returnTo);
    result.hash = '';
    return result.toString();
  }
}
