// oidc-provider's storage for one project, on Gatehouse's own database (PGlite or PostgreSQL) through
// repo/oauth-provider.ts. Rows are keyed by the hash of the id and the payload is stored without its `jti`: the id of
// a code or an opaque token is the credential itself, so it is given back only to whoever presents it (`find(id)`).
// Clients come from the project's client table (oauth-provider/client-metadata.ts), never from this store; a client
// registered dynamically (RFC 7591, when the project allows it) is written there, its secret as a hash.
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { DB } from '../db';
import { openSecret, sealSecret } from '../db/secrets-at-rest';
import { hashSecret } from '../db/secret-hash';
import { OAUTH_PROVIDER_SCOPES, OAUTH_PROVIDER_TOKEN_LIFETIMES as LIFETIMES } from '@gatehouse/shared/schemas/oauth-provider';
import * as store from '../repo/oauth-provider';
import { keptClient } from './kept-clients';
import { clientMetadata, clientRuleViolation, MAX_CLIENTS, MAX_REDIRECT_URIS, REGISTERED_CLIENT_GRANTS } from './client-metadata';

/** `refuse`: the provider's error (invalid_client_metadata) for a registration Gatehouse does not take. */
export function adapterFor(db: DB, projectId: string, o: { refuse: (reason: string) => Error }): (model: string) => Adapter {
  return (model) => (model === 'Client' ? clientAdapter(db, projectId, o.refuse) : new RecordAdapter(db, projectId, model));
}

function clientAdapter(db: DB, projectId: string, refuse: (reason: string) => Error): Adapter {
  const unsupported = async () => { throw new Error('OAuth clients are managed through the admin API'); };
  return {
    // Only the registration endpoint saves a client, after the provider validated its metadata.
    async upsert(id, metadata) {
      const secret = typeof metadata.client_secret === 'string' ? metadata.client_secret : null;
      const confidential = metadata.token_endpoint_auth_method !== 'none' && secret !== null;
      const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
      const now = new Date();
      const row: store.ProviderClientRow = {
        projectId, clientId: id, displayName: typeof metadata.client_name === 'string' && metadata.client_name ? metadata.client_name.slice(0, 200) : 'Registered client',
        clientType: confidential ? 'confidential' : 'public', secretHash: confidential ? hashSecret(secret) : null,
        redirectUris: [...new Set(list(metadata.redirect_uris))], grantTypes: [...new Set(list(metadata.grant_types))],
        scopes: typeof metadata.scope === 'string' ? [...new Set(metadata.scope.split(' ').filter(Boolean))] : [...OAUTH_PROVIDER_SCOPES],
        logoUrl: typeof metadata.logo_uri === 'string' ? metadata.logo_uri : null,
        // A client that registered itself does not choose its token lifetimes: the defaults, which the owner may change.
        accessTokenLifetimeSeconds: LIFETIMES.access_token_lifetime_seconds.default, idTokenLifetimeSeconds: LIFETIMES.id_token_lifetime_seconds.default,
        refreshTokenLifetimeSeconds: LIFETIMES.refresh_token_lifetime_seconds.default,
        createdAt: now, updatedAt: now,
      };
      // Gatehouse's rules first, as for the admin API; and a client that registered itself only gets tokens for a
      // person who signed in and consented (no client credentials: anyone could otherwise mint tokens for a resource).
      if (!row.grantTypes.every((g) => REGISTERED_CLIENT_GRANTS.includes(g)) || !row.grantTypes.includes('authorization_code')) {
        throw refuse(`a registered client may use only ${REGISTERED_CLIENT_GRANTS.join(' and ')}, with authorization_code`);
      }
      if (row.redirectUris.length > MAX_REDIRECT_URIS) throw refuse(`a client can have at most ${MAX_REDIRECT_URIS} redirect URIs`);
      const violation = clientRuleViolation(row);
      if (violation) throw refuse(violation.replace(/\.$/, ''));
      // Open registration must not grow the table without bound.
      if ((await store.listClients(db, projectId)).length >= MAX_CLIENTS) throw refuse(`a project can have at most ${MAX_CLIENTS} OAuth clients`);
      await store.insertClient(db, row);
    },
    async find(id) {
      const row = await keptClient(db, projectId, id);
      return row ? (clientMetadata(row) as AdapterPayload) : undefined;
    },
    findByUid: unsupported, findByUserCode: unsupported, consume: unsupported, destroy: unsupported,
    revokeByGrantId: unsupported,
  };
}

const DEVICE_CODE_PURPOSE = 'oauth-provider-device-code';
/**
 * A device code's row outlives the code by this much: a device polling after the code expired must be told
 * `expired_token` (RFC 8628 §3.5) so it starts again, which oidc-provider says only of a code it still finds.
 */
export const EXPIRED_DEVICE_CODE_KEPT_SECONDS = 600;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

class RecordAdapter implements Adapter {
  constructor(private readonly db: DB, private readonly projectId: string, private readonly model: string) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const { jti: _id, consumed: _consumed, userCode, ...rest } = payload;
    // A device's request is found again by the code the person types: that code is kept only as the row's hash, and
    // the device code (the device's credential) only sealed, for the provider to carry on with once the code is typed.
    const deviceCode = typeof userCode === 'string';
    if (deviceCode) (rest as Record<string, unknown>).deviceCodeSealed = sealSecret(DEVICE_CODE_PURPOSE, id);
    else if (this.model === 'DeviceCode') {
      // Saved after it was found by its id (the device polling): the sealed code stays for the person's side.
      const before = await store.findRecord(this.db, this.projectId, this.model, id);
      if (before?.payload.deviceCodeSealed) (rest as Record<string, unknown>).deviceCodeSealed = before.payload.deviceCodeSealed;
    }
    await store.upsertRecord(this.db, {
      projectId: this.projectId, model: this.model, id,
      uid: deviceCode ? userCode : typeof payload.uid === 'string' ? payload.uid : null,
      grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
      // Gatehouse user ids (findAccount answers only those); anything else would not be a user's.
      accountId: typeof payload.accountId === 'string' && UUID.test(payload.accountId) ? payload.accountId : null,
      clientId: typeof payload.clientId === 'string' ? payload.clientId : null,
      payload: rest as Record<string, unknown>,
      expiresAt: expiresIn ? new Date(Date.now() + (expiresIn + (this.model === 'DeviceCode' ? EXPIRED_DEVICE_CODE_KEPT_SECONDS : 0)) * 1000) : null,
    });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const found = await store.findRecord(this.db, this.projectId, this.model, id);
    return found ? this.payloadOf(found, id) : undefined;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const found = await store.findRecordByUid(this.db, this.projectId, this.model, uid);
    // A session's id is its cookie; found by uid alone it is given back without one, which oidc-provider accepts
    // for the places it looks sessions up by uid (logout of other clients).
    return found ? this.payloadOf(found, undefined) : undefined;
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const found = await store.findRecordByUid(this.db, this.projectId, this.model, userCode);
    const sealed = found?.payload.deviceCodeSealed;
    if (!found || typeof sealed !== 'string') return undefined;
    const { deviceCodeSealed: _sealed, ...payload } = this.payloadOf(found, openSecret(DEVICE_CODE_PURPOSE, sealed));
    return { ...payload, userCode };
  }

  async consume(id: string): Promise<void> {
    await store.consumeRecord(this.db, this.projectId, this.model, id);
  }

  async destroy(id: string): Promise<void> {
    await store.destroyRecord(this.db, this.projectId, this.model, id);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await store.revokeGrant(this.db, this.projectId, grantId);
  }

  private payloadOf(found: store.ProviderRecord, id: string | undefined): AdapterPayload {
    const { deviceCodeSealed: _sealed, ...stored } = found.payload;
    const payload: AdapterPayload = { ...(stored as AdapterPayload) };
    if (id !== undefined) payload.jti = id;
    if (found.consumedAt) payload.consumed = Math.floor(found.consumedAt.getTime() / 1000);
    return payload;
  }
}
