// The consent page's rules (pages/oauth-consent.tsx): which catalogue text describes a scope, and which request the
// page's address names. Pure.
import type { MessageKey } from '../messages';

const SCOPE_KEYS: Record<string, MessageKey> = {
  openid: 'oauthConsent.scope.openid',
  profile: 'oauthConsent.scope.profile',
  email: 'oauthConsent.scope.email',
  offline_access: 'oauthConsent.scope.offline_access',
};

/** The text of a scope the provider knows; null for a scope it does not (shown by its id). */
export function scopeKey(scope: string): MessageKey | null {
  return Object.hasOwn(SCOPE_KEYS, scope) ? SCOPE_KEYS[scope]! : null;
}

/** The authorization request the page answers (`?interaction=`), or null. */
export function interactionIdOf(search: string): string | null {
  const id = new URLSearchParams(search).get('interaction');
  return id && id.length <= 200 ? id : null;
}
