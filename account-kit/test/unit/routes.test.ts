// Handler routing (client-library §6.1): which page a path shows, aliases, pages moved out of the handler, not found.
import { describe, expect, test } from 'bun:test';
import { resolveHandlerUrls } from '@gatehouse/shared/client/redirects';
import { HANDLER_PAGES, handlerSegment, resolveHandlerRoute } from '../../src/handler/routes';

const urls = resolveHandlerUrls({});
const at = (path: string, search = '', u = urls) => resolveHandlerRoute({ pathname: path, search }, u);

describe('resolveHandlerRoute', () => {
  test('every page of §6.1 renders under the default handler path, with or without a trailing slash', () => {
    expect(HANDLER_PAGES).toEqual([
      'sign-in', 'sign-up', 'sign-out', 'email-verification', 'password-reset', 'forgot-password', 'oauth-callback',
      'magic-link-callback', 'account-settings', 'error', 'team-invitation', 'cli-auth-confirm', 'oauth-consent',
    ]);
    for (const page of HANDLER_PAGES) {
      expect(at(`/handler/${page}`)).toEqual({ kind: 'page', page });
      expect(at(`/handler/${page}/`)).toEqual({ kind: 'page', page });
    }
  });

  test('aliases (dashes removed, login, register) redirect to the canonical page keeping the query', () => {
    const expected: Record<string, string> = {
      signin: 'sign-in', signup: 'sign-up', signout: 'sign-out', emailverification: 'email-verification',
      passwordreset: 'password-reset', forgotpassword: 'forgot-password', oauthcallback: 'oauth-callback',
      magiclinkcallback: 'magic-link-callback', teaminvitation: 'team-invitation', accountsettings: 'account-settings',
      cliauthconfirm: 'cli-auth-confirm', login: 'sign-in', register: 'sign-up',
    };
    for (const [alias, page] of Object.entries(expected)) {
      expect(at(`/handler/${alias}`, '?a=1&b=x%20y')).toEqual({ kind: 'redirect', to: `/handler/${page}?a=1&b=x+y` });
    }
    expect(at('/handler/login')).toEqual({ kind: 'redirect', to: '/handler/sign-in' });
  });

  test('matching is exact: other casing or unknown segments are not found', () => {
    for (const path of ['/handler/LOGIN', '/handler/Sign-In', '/handler/nope', '/handler/sign-in/extra', '/handler', '/handler/']) {
      expect(at(path)).toEqual({ kind: 'not-found' });
    }
  });

  test('a page the app moved out of the handler redirects there (replace), copying every query parameter', () => {
    const moved = resolveHandlerUrls({ signIn: '/login?from=app', passwordReset: 'https://app.example.com/reset#top' });
    expect(at('/handler/sign-in', '?after_auth_return_to=%2Fx', moved)).toEqual({ kind: 'redirect', to: '/login?from=app&after_auth_return_to=%2Fx' });
    // Only the relative part of an absolute configured URL is used.
    expect(at('/handler/password-reset', '?code=abc', moved)).toEqual({ kind: 'redirect', to: '/reset?code=abc#top' });
    // Pages without a configured URL (account-settings, error, cli-auth-confirm) always render.
    expect(at('/handler/error', '', moved)).toEqual({ kind: 'page', page: 'error' });
  });

  test('a handler at another path moves every page; a configured URL inside it is not a redirect', () => {
    const custom = resolveHandlerUrls({ handler: '/auth' });
    expect(at('/auth/sign-up', '', custom)).toEqual({ kind: 'page', page: 'sign-up' });
    expect(at('/auth/register', '?q=1', custom)).toEqual({ kind: 'redirect', to: '/auth/sign-up?q=1' });
    expect(at('/handler/sign-up', '', custom)).toEqual({ kind: 'not-found' });
  });
});

describe('handlerSegment', () => {
  test('strips the handler path and slashes', () => {
    expect(handlerSegment('/handler/sign-in', '/handler')).toBe('sign-in');
    expect(handlerSegment('/handler//sign-in//', '/handler/')).toBe('sign-in');
    expect(handlerSegment('/handler', '/handler')).toBe('');
    expect(handlerSegment('/handlerx/sign-in', '/handler')).toBe('handlerx/sign-in');
  });
});
