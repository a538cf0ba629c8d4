// The OAuth clients of a project's OpenID provider (admin API /oauth-provider/clients). A confidential client's
// secret is made here, answered once and stored as its sha256; the settings are checked first by Gatehouse's rules
// (grant types that go together) and then by oidc-provider itself, so a client that is saved also loads.
import { randomBytes } from 'node:crypto';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { OAUTH_PROVIDER_SCOPES, OAUTH_PROVIDER_TOKEN_LIFETIMES as LIFETIMES } from '@gatehouse/shared/schemas/oauth-provider';
import type { Services } from '../services';
import * as store from '../repo/oauth-provider';
import { hashSecret } from '../db/secret-hash';
import type { DB } from '../db';
import { STANDARD_SCOPES } from '@gatehouse/shared/rules/oauth-provider-claims';
import { clientMetadata, clientRuleViolation, MAX_CLIENTS } from './client-metadata';
import { projectProvider } from './providers';
import { forgetClient } from './kept-clients';

export interface ClientFields extends Lifetimes {
  displayName?: string; redirectUris?: string[]; grantTypes?: string[]; scopes?: string[]; logoUrl?: string | null;
}

/** A client's token lifetimes in seconds (the admin API's schema holds them to OAUTH_PROVIDER_TOKEN_LIFETIMES). */
export interface Lifetimes { accessTokenLifetimeSeconds?: number; idTokenLifetimeSeconds?: number; refreshTokenLifetimeSeconds?: number }

const DEFAULT_GRANT_TYPES = ['authorization_code', 'refresh_token'];

const distinct = (values: string[]) => [...new Set(values)];

export async function listClients(services: Services, input: { projectId: string }): Promise<store.ProviderClientRow[]> {
  return store.listClients(services.db, input.projectId);
}

export async function getClient(services: Services, input: { projectId: string; clientId: string }): Promise<store.ProviderClientRow> {
  const row = await store.findClient(services.db, input.projectId, input.clientId);
  if (!row) throw new KnownErrors.OAuthProviderClientNotFound(input.clientId);
  return row;
}

/** The client's consents and token activity, for the console (the client must exist in the project). */
export async function getClientActivity(services: Services, input: { projectId: string; clientId: string }): Promise<store.ClientActivity> {
  await getClient(services, input);
  return store.clientActivity(services.db, input.projectId, input.clientId);
}

/** The new client and, for a confidential one, its secret (shown only now). */
export async function createClient(services: Services, input: { projectId: string; clientType: 'confidential' | 'public'; fields: ClientFields & { displayName: string } }): Promise<{ row: store.ProviderClientRow; secret: string | null }> {
  const { projectId, clientType, fields } = input;
  const secret = clientType === 'confidential' ? `ghs_${randomBytes(32).toString('base64url')}` : null;
  const now = new Date();
  const row: store.ProviderClientRow = {
    projectId, clientId: `ghc_${randomBytes(16).toString('base64url')}`, displayName: fields.displayName, clientType,
    secretHash: secret ? hashSecret(secret) : null,
    redirectUris: distinct(fields.redirectUris ?? []), grantTypes: distinct(fields.grantTypes ?? DEFAULT_GRANT_TYPES),
    scopes: distinct(fields.scopes ?? [...OAUTH_PROVIDER_SCOPES]), logoUrl: fields.logoUrl ?? null,
    accessTokenLifetimeSeconds: fields.accessTokenLifetimeSeconds ?? LIFETIMES.access_token_lifetime_seconds.default,
    idTokenLifetimeSeconds: fields.idTokenLifetimeSeconds ?? LIFETIMES.id_token_lifetime_seconds.default,
    refreshTokenLifetimeSeconds: fields.refreshTokenLifetimeSeconds ?? LIFETIMES.refresh_token_lifetime_seconds.default,
    createdAt: now, updatedAt: now,
  };
  await assertUsable(services, row);
  const saved = await services.db.transaction(async (tx) => {
    await store.lockProviderConfiguration(tx, projectId);
    if ((await store.listClients(tx, projectId)).length >= MAX_CLIENTS) {
      throw new KnownErrors.OAuthProviderClientInvalid(`a project can have at most ${MAX_CLIENTS} OAuth clients.`);
    }
    await assertScopesOffered(tx, row);
    return store.insertClient(tx, row);
  });
  return { row: saved, secret };
}

export async function updateClient(services: Services, input: { projectId: string; clientId: string; fields: ClientFields }): Promise<store.ProviderClientRow> {
  const current = await getClient(services, input);
  const { fields } = input;
  const patch: store.ClientPatch = {
    displayName: fields.displayName, logoUrl: fields.logoUrl,
    redirectUris: fields.redirectUris && distinct(fields.redirectUris), grantTypes: fields.grantTypes && distinct(fields.grantTypes),
    scopes: fields.scopes && distinct(fields.scopes),
    accessTokenLifetimeSeconds: fields.accessTokenLifetimeSeconds, idTokenLifetimeSeconds: fields.idTokenLifetimeSeconds,
    refreshTokenLifetimeSeconds: fields.refreshTokenLifetimeSeconds,
  };
  const next = { ...current, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as store.ProviderClientRow;
  await assertUsable(services, next);
  const row = await services.db.transaction(async (tx) => {
    await store.lockProviderConfiguration(tx, input.projectId);
    if (patch.scopes) await assertScopesOffered(tx, next);
    return store.updateClient(tx, input.projectId, input.clientId, patch);
  }).finally(() => forgetClient(services.db, input.projectId, input.clientId));
  if (!row) throw new KnownErrors.OAuthProviderClientNotFound(input.clientId);
  return row;
}

/**
 * The client's scopes are still offered by the provider, read again under the configuration lock: assertUsable checked
 * them against the provider as it was built, and the settings may have lost one since (settings.ts takes the lock).
 */
async function assertScopesOffered(tx: DB, row: store.ProviderClientRow): Promise<void> {
  const settings = await store.findSettings(tx, row.projectId);
  const offered = new Set<string>([...STANDARD_SCOPES, ...(settings?.scopes ?? []).map((s) => s.name)]);
  const missing = row.scopes.find((scope) => !offered.has(scope));
  if (missing) throw new KnownErrors.OAuthProviderClientInvalid(`the scope "${missing}" is not offered by this project's provider.`);
}

/** Removes the client, the consents given to it and every grant and token it holds. */
export async function deleteClient(services: Services, input: { projectId: string; clientId: string }): Promise<void> {
  const deleted = await store.deleteClient(services.db, input.projectId, input.clientId).finally(() => forgetClient(services.db, input.projectId, input.clientId));
  if (!deleted) throw new KnownErrors.OAuthProviderClientNotFound(input.clientId);
}

async function assertUsable(services: Services, row: store.ProviderClientRow): Promise<void> {
  const invalid = (reason: string) => new KnownErrors.OAuthProviderClientInvalid(reason);
  const violation = clientRuleViolation(row);
  if (violation) throw invalid(violation);
  const provider = await projectProvider(services, row.projectId);
  if (!provider) throw new KnownErrors.ProjectNotFound(row.projectId);
  try {
    await provider.Client.validate(clientMetadata(row) as never);
  } catch (err) {
    const described = (err as { error_description?: unknown }).error_description;
    if (typeof described === 'string') throw invalid(`${described}.`);
    throw err;
  }
}
