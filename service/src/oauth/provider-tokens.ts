// Provider tokens kept for `/connected-accounts/.../access-token` (protocol-auth §3.6.5). They have to be usable,
// so they are encrypted (AES-256-GCM, key derived from the service secret per project) rather than hashed.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import type { DB } from '../db';
import * as accounts from '../repo/oauth-accounts';
import { decryptString, encryptString } from '../tokens/encryption';
import { refreshAccessToken, type ProviderTokens } from './client';
import type { ProjectProvider } from './project-providers';
import { resolveEndpoints } from './project-providers';

/** A stored access token is handed out only if it stays valid at least this long. */
const MIN_REMAINING_MS = 5 * 60 * 1000;

/** Each project's provider tokens under their own key (exported for the re-seal pass, security/reseal.ts). */
export const providerTokenPurpose = (projectId: string) => `oauth-provider-token:${projectId}`;
const purpose = providerTokenPurpose;

export async function storeProviderTokens(
  db: DB,
  services: Services,
  p: { projectId: string; userId: string; providerId: string; providerAccountId: string; tokens: Pick<ProviderTokens, 'accessToken' | 'refreshToken' | 'expiresAt' | 'scopes'> },
): Promise<void> {
  const enc = (token: string) => encryptString(services.secret, purpose(p.projectId), token);
  const common = { projectId: p.projectId, userId: p.userId, providerId: p.providerId, providerAccountId: p.providerAccountId, scopes: p.tokens.scopes };
  const rows: Parameters<typeof accounts.insertTokens>[1] = [
    { ...common, kind: 'access', tokenEncrypted: enc(p.tokens.accessToken), expiresAt: p.tokens.expiresAt ?? null },
  ];
  if (p.tokens.refreshToken) rows.push({ ...common, kind: 'refresh', tokenEncrypted: enc(p.tokens.refreshToken), expiresAt: null });
  // Every sign-in brings new tokens; older ones for no more scopes would only pile up.
  await accounts.deleteSupersededTokens(db, common);
  await accounts.insertTokens(db, rows);
}

const covers = (granted: string[], requested: string[]) => requested.every((s) => granted.includes(s));

/**
 * A provider access token with every requested scope: a stored one valid for 5 more minutes (tokens without a
 * known expiry, e.g. GitHub's, count as valid), else one refreshed with a stored refresh token covering the scopes.
 */
export async function connectedAccessToken(services: Services, projectId: string, userId: string, provider: ProjectProvider, requested: string[]): Promise<string> {
  const db = services.db;
  const decrypt = (row: accounts.OAuthTokenRow) => decryptString(services.secret, purpose(projectId), row.tokenEncrypted);
  const minExpiry = Date.now() + MIN_REMAINING_MS;
  const stale: string[] = [];
  for (const row of await accounts.listTokens(db, projectId, userId, provider.id, 'access')) {
    if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) stale.push(row.id);
    else if ((!row.expiresAt || row.expiresAt.getTime() >= minExpiry) && covers(row.scopes, requested)) return decrypt(row);
  }
  await accounts.deleteTokens(db, projectId, stale);

  const refreshRows = (await accounts.listTokens(db, projectId, userId, provider.id, 'refresh')).filter((r) => covers(r.scopes, requested));
  if (refreshRows.length === 0) throw new KnownErrors.OAuthConnectionDoesNotHaveRequiredScope();
  const resolved = await resolveEndpoints(services, provider);
  for (const row of refreshRows) {
    const result = await refreshAccessToken({
      provider: resolved,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      refreshToken: decrypt(row),
      scopes: row.scopes.filter((s) => !resolved.definition.baseScopes.includes(s)),
      extras: provider.extras,
    });
    if (!result.ok) {
      // A refresh token the provider no longer accepts is useless; other failures may be transient.
      if (result.failure.kind === 'invalid_grant') await accounts.deleteTokens(db, projectId, [row.id]);
      else console.error(`OAuth provider ${provider.id}: token refresh failed (${result.failure.kind}, ${result.failure.stage})`);
      continue;
    }
    await db.transaction(async (tx) => {
      // Replaces this row and anything else for no more scopes (providers may rotate refresh tokens).
      await accounts.deleteTokens(tx, projectId, [row.id]);
      await storeProviderTokens(tx, services, {
        projectId, userId, providerId: provider.id, providerAccountId: row.providerAccountId,
        tokens: { ...result, scopes: row.scopes },
      });
    });
    return result.accessToken;
  }
  throw new KnownErrors.OAuthConnectionDoesNotHaveRequiredScope();
}
