// "Connected apps" (issue 27): the applications the signed-in user let sign them in through the project's own
// OpenID provider. Gatehouse's own API (GET/DELETE /oauth-provider/connected-apps).
import type { InternalSession } from '../session.ts';
import { items, type ClientContext } from './common.ts';
import type { ListOf, OAuthProviderConnectedAppJson } from '../wire.ts';

export interface ConnectedApp {
  readonly clientId: string;
  readonly displayName: string;
  readonly logoUrl: string | null;
  /** The scopes the user allowed it (openid, profile, email, offline_access). */
  readonly scopes: readonly string[];
  /** The project's own scopes among them, by the description the consent page showed. */
  readonly scopeDescriptions: Readonly<Record<string, string>>;
  readonly grantedAt: Date;
}

export function connectedAppsCache(ctx: ClientContext) {
  return ctx.core.cache('my-connected-apps', ([s]: [InternalSession]) =>
    ctx.core.json<ListOf<OAuthProviderConnectedAppJson>>('/oauth-provider/connected-apps', {}, s, 'client').then(items));
}

export function connectedAppFromJson(json: OAuthProviderConnectedAppJson): ConnectedApp {
  return Object.freeze({
    clientId: json.client_id, displayName: json.display_name, logoUrl: json.logo_url, scopes: Object.freeze([...json.scopes]),
    scopeDescriptions: Object.freeze({ ...json.scope_descriptions }), grantedAt: new Date(json.granted_at_millis),
  });
}

/** Revokes the app's access (its consent, grants and tokens), then refreshes the cached list. */
export async function revokeConnectedApp(ctx: ClientContext, clientId: string): Promise<void> {
  await ctx.core.json(`/oauth-provider/connected-apps/${encodeURIComponent(clientId)}`, { method: 'DELETE' }, ctx.session, 'client');
  await connectedAppsCache(ctx).refresh([ctx.session]);
}
