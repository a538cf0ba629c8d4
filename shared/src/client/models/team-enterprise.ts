// A team as a customer organization (issue 28), for servers and admins (the console): its email domains proved by
// DNS, its SSO connections, its SCIM tokens and the groups SCIM pushed with the permissions they grant. Each list is a
// cached read; every change refreshes the list it touched.
import { compact, items, type ServerContext } from './common.ts';
import type { CachedRead } from '../cache.ts';
import type {
  EmptyBody, ListOf, ScimGroupCreateBody, ScimGroupJson, ScimGroupUpdateBody, ScimTokenCreateBody, ScimTokenFirstViewJson, ScimTokenJson, SsoConnectionCreateBody,
  SsoConnectionJson, SsoConnectionTestJson, SsoConnectionUpdateBody, TeamDomainCreateBody, TeamDomainJson, TeamDomainUpdateBody,
} from '../wire.ts';


export interface TeamDomain {
  readonly id: string;
  readonly domain: string;
  readonly status: 'pending' | 'verified';
  /** The DNS TXT record to publish. */
  readonly txtRecord: { readonly name: string; readonly value: string };
  readonly verifiedAt: Date | null;
  readonly lastCheckedAt: Date | null;
  readonly lastCheckProblem: string | null;
  readonly ssoRequired: boolean;
  readonly createdAt: Date;
  /** Looks the TXT record up now (DOMAIN_VERIFICATION_FAILED when it is not there). */
  verify(): Promise<void>;
  setSsoRequired(required: boolean): Promise<void>;
  remove(): Promise<void>;
}

export interface SsoConnection {
  readonly id: string;
  readonly type: 'saml' | 'oidc';
  readonly displayName: string;
  readonly enabled: boolean;
  readonly idpEnforcesMfa: boolean;
  readonly idpEntityId: string | null;
  readonly idpSsoUrl: string | null;
  readonly allowIdpInitiated: boolean;
  /** What the IdP's administrator enters (SAML): the entity id, the ACS and the metadata URL. */
  readonly spEntityId: string | null;
  readonly acsUrl: string | null;
  readonly spMetadataUrl: string | null;
  readonly issuer: string | null;
  readonly clientId: string | null;
  readonly hasClientSecret: boolean;
  /** What the OIDC provider's administrator registers. */
  readonly redirectUri: string | null;
  readonly createdAt: Date;
  update(options: SsoConnectionOptions): Promise<void>;
  delete(): Promise<void>;
  /** Starts a test sign-in: the URL to open in a new window; its end reports what the IdP sent, signing nobody in. */
  startTest(): Promise<{ url: string }>;
}

export interface SsoConnectionOptions {
  displayName?: string;
  enabled?: boolean;
  idpEnforcesMfa?: boolean;
  idpMetadataXml?: string;
  idpMetadataUrl?: string;
  idpEntityId?: string;
  idpSsoUrl?: string;
  idpCertificate?: string;
  allowIdpInitiated?: boolean;
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
}

export interface ScimToken {
  readonly id: string;
  readonly description: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  revoke(): Promise<void>;
}

export interface ScimGroup {
  readonly id: string;
  readonly displayName: string;
  readonly externalId: string | null;
  readonly memberCount: number;
  readonly permissionIds: readonly string[];
  setPermissions(permissionIds: string[]): Promise<void>;
}

export interface TeamEnterprise {
  claimDomain(domain: string): Promise<void>;
  createSsoConnection(type: 'saml' | 'oidc', options: SsoConnectionOptions): Promise<void>;
  /** The token's value is in this answer only, with the team's SCIM base URL. */
  createScimToken(options?: { description?: string }): Promise<{ token: string; scimBaseUrl: string }>;
  /**
   * Names a group of the identity provider ahead of SCIM (an SSO `groups` claim can then grant its permissions);
   * a group SCIM later pushes under this name is this one.
   */
  createScimGroup(displayName: string, permissionIds?: string[]): Promise<ScimGroup>;
  readonly reads: {
    domains(): CachedRead<TeamDomain[]>;
    ssoConnections(): CachedRead<SsoConnection[]>;
    scimTokens(): CachedRead<ScimToken[]>;
    scimGroups(): CachedRead<ScimGroup[]>;
  };
}

const date = (ms: number | null) => (ms === null ? null : new Date(ms));

function connectionBody(o: SsoConnectionOptions): SsoConnectionUpdateBody {
  return compact({
    display_name: o.displayName, enabled: o.enabled, idp_enforces_mfa: o.idpEnforcesMfa, idp_metadata_xml: o.idpMetadataXml,
    idp_metadata_url: o.idpMetadataUrl, idp_entity_id: o.idpEntityId, idp_sso_url: o.idpSsoUrl, idp_certificate: o.idpCertificate,
    allow_idp_initiated: o.allowIdpInitiated, issuer: o.issuer, client_id: o.clientId, client_secret: o.clientSecret,
  });
}

export function createTeamEnterprise({ core, access }: ServerContext, teamId: string): TeamEnterprise {
  const base = `/teams/${encodeURIComponent(teamId)}`;
  const list = <T>(name: string, path: string) =>
    core.cache(`team-${name}:${access}`, ([id]: [string]) => core.json<ListOf<T>>(`/teams/${encodeURIComponent(id)}${path}`, {}, null, access).then(items));
  const domainsCache = list<TeamDomainJson>('domains', '/domains');
  const connectionsCache = list<SsoConnectionJson>('sso-connections', '/sso-connections');
  const tokensCache = list<ScimTokenJson>('scim-tokens', '/scim-tokens');
  const groupsCache = list<ScimGroupJson>('scim-groups', '/scim-groups');
  const send = <B>(path: string, method: 'POST' | 'PATCH' | 'DELETE', body?: B) =>
    core.json<unknown, B>(`${base}${path}`, { method, ...(body === undefined ? {} : { body }) }, null, access);
  // A domain's verification and "require SSO" also decide what a connection list shows (discovery): both refresh.
  const refreshDomains = () => domainsCache.refresh([teamId]);

  const domain = (j: TeamDomainJson): TeamDomain => Object.freeze({
    id: j.id, domain: j.domain, status: j.status, txtRecord: Object.freeze({ ...j.txt_record }), verifiedAt: date(j.verified_at_millis),
    lastCheckedAt: date(j.last_checked_at_millis), lastCheckProblem: j.last_check_problem, ssoRequired: j.sso_required, createdAt: new Date(j.created_at_millis),
    async verify() {
      try { await send<EmptyBody>(`/domains/${j.id}/verify`, 'POST', {}); } finally { await refreshDomains(); }
    },
    async setSsoRequired(required: boolean) { await send<TeamDomainUpdateBody>(`/domains/${j.id}`, 'PATCH', { sso_required: required }); await refreshDomains(); },
    async remove() { await send(`/domains/${j.id}`, 'DELETE'); await refreshDomains(); },
  });

  const connection = (j: SsoConnectionJson): SsoConnection => Object.freeze({
    id: j.id, type: j.type, displayName: j.display_name, enabled: j.enabled, idpEnforcesMfa: j.idp_enforces_mfa, idpEntityId: j.idp_entity_id,
    idpSsoUrl: j.idp_sso_url, allowIdpInitiated: j.allow_idp_initiated, spEntityId: j.sp_entity_id, acsUrl: j.acs_url, spMetadataUrl: j.sp_metadata_url,
    issuer: j.issuer, clientId: j.client_id, hasClientSecret: j.has_client_secret, redirectUri: j.redirect_uri, createdAt: new Date(j.created_at_millis),
    async update(options: SsoConnectionOptions) { await send<SsoConnectionUpdateBody>(`/sso-connections/${j.id}`, 'PATCH', connectionBody(options)); await connectionsCache.refresh([teamId]); },
    async delete() { await send(`/sso-connections/${j.id}`, 'DELETE'); await connectionsCache.refresh([teamId]); },
    startTest: () => core.json<SsoConnectionTestJson, EmptyBody>(`${base}/sso-connections/${j.id}/test`, { method: 'POST', body: {} }, null, access),
  });

  const token = (j: ScimTokenJson): ScimToken => Object.freeze({
    id: j.id, description: j.description, createdAt: new Date(j.created_at_millis), lastUsedAt: date(j.last_used_at_millis),
    async revoke() { await send(`/scim-tokens/${j.id}`, 'DELETE'); await tokensCache.refresh([teamId]); },
  });

  const group = (j: ScimGroupJson): ScimGroup => Object.freeze({
    id: j.id, displayName: j.display_name, externalId: j.external_id, memberCount: j.member_count, permissionIds: Object.freeze([...j.permission_ids]),
    async setPermissions(permissionIds: string[]) { await send<ScimGroupUpdateBody>(`/scim-groups/${j.id}`, 'PATCH', { permission_ids: permissionIds }); await groupsCache.refresh([teamId]); },
  });

  return Object.freeze({
    async claimDomain(name: string) { await send<TeamDomainCreateBody>('/domains', 'POST', { domain: name }); await refreshDomains(); },
    async createSsoConnection(type: 'saml' | 'oidc', options: SsoConnectionOptions) {
      await send<SsoConnectionCreateBody>('/sso-connections', 'POST', { type, ...connectionBody(options) });
      await connectionsCache.refresh([teamId]);
    },
    async createScimToken(options: { description?: string } = {}) {
      const created = await core.json<ScimTokenFirstViewJson, ScimTokenCreateBody>(`${base}/scim-tokens`, { method: 'POST', body: compact({ description: options.description }) }, null, access);
      await tokensCache.refresh([teamId]);
      return { token: created.token, scimBaseUrl: created.scim_base_url };
    },
    async createScimGroup(displayName: string, permissionIds?: string[]) {
      const created = await core.json<ScimGroupJson, ScimGroupCreateBody>(`${base}/scim-groups`, { method: 'POST', body: compact({ display_name: displayName, permission_ids: permissionIds }) }, null, access);
      await groupsCache.refresh([teamId]);
      return group(created);
    },
    reads: Object.freeze({
      domains: () => domainsCache.handle([teamId], 'domains', (l) => l.map(domain)),
      ssoConnections: () => connectionsCache.handle([teamId], 'sso-connections', (l) => l.map(connection)),
      scimTokens: () => tokensCache.handle([teamId], 'scim-tokens', (l) => l.map(token)),
      scimGroups: () => groupsCache.handle([teamId], 'scim-groups', (l) => l.map(group)),
    }),
  });
}
