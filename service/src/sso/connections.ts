// Use cases of a team's SSO connections (issue 28; server or admin access): create, list, get, update, delete.
// A SAML connection is configured from the IdP's metadata (pasted, or fetched from its URL through the outbound
// guard) or by hand; an OIDC connection by its issuer, which is discovered at once so that a mistake shows now,
// not at a user's first sign-in. The OIDC client secret is sealed at rest.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as teams from '../repo/teams';
import * as sso from '../repo/sso';
import { openSecret, sealSecret } from '../db/secrets-at-rest';
import { pinnedFetchTarget } from '../net/outbound-targets';
import { certificatePem, readIdpMetadata } from './idp-metadata';
import { discoverOidc } from './oidc';
import { refreshSsoRequiredDomains } from './required-domains';
import type { AttributeMapping, ConnectionSettings, OidcSettings, SamlSettings } from './settings';

export interface ConnectionFields {
  display_name?: string;
  enabled?: boolean;
  idp_enforces_mfa?: boolean;
  attribute_mapping?: AttributeMapping;
  idp_metadata_xml?: string;
  idp_metadata_url?: string;
  idp_entity_id?: string;
  idp_sso_url?: string;
  idp_certificate?: string;
  allow_idp_initiated?: boolean;
  issuer?: string;
  client_id?: string;
  client_secret?: string;
}

interface TeamInput { projectId: string; teamId: string }
const invalid = (problem: string) => new KnownErrors.InvalidSsoConnection(problem);

function httpUrl(value: string, field: string, allowHttp: boolean): string {
  let url: URL;
  try { url = new URL(value); } catch { throw invalid(`${field} is not a URL.`); }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) throw invalid(`${field} must be an https URL.`);
  return url.href;
}

async function fetchMetadata(services: Services, url: string): Promise<string> {
  const target = await pinnedFetchTarget(httpUrl(url, 'idp_metadata_url', !services.config.isProduction), services.config.outbound)
    .catch((err: Error) => { throw invalid(`idp_metadata_url could not be reached (${err.message}).`); });
  const res = await fetch(target.url, {
    redirect: 'manual', signal: AbortSignal.timeout(10_000), headers: { host: target.host, accept: 'application/samlmetadata+xml, application/xml' },
    ...(target.serverName ? { tls: { serverName: target.serverName } } : {}),
  }).catch((err: Error) => { throw invalid(`idp_metadata_url could not be fetched (${err.message}).`); });
  if (!res.ok) throw invalid(`idp_metadata_url answered HTTP ${res.status}.`);
  const text = await res.text();
  if (text.length > 1_000_000) throw invalid('the metadata at idp_metadata_url is larger than 1 MB.');
  return text;
}

/** The SAML settings from the fields (metadata first, then the fields by hand over it), checked. */
async function samlSettings(services: Services, f: ConnectionFields, current: SamlSettings | null): Promise<SamlSettings> {
  let base: Pick<SamlSettings, 'idpEntityId' | 'idpSsoUrl' | 'idpCertificates'> = current ?? { idpEntityId: '', idpSsoUrl: '', idpCertificates: [] };
  const metadataXml = f.idp_metadata_xml ?? (f.idp_metadata_url ? await fetchMetadata(services, f.idp_metadata_url) : undefined);
  if (metadataXml !== undefined) {
    const read = readIdpMetadata(metadataXml);
    if (typeof read === 'string') throw invalid(read);
    base = { idpEntityId: read.entityId, idpSsoUrl: read.ssoUrl, idpCertificates: read.certificates };
  }
  if (f.idp_entity_id !== undefined) base = { ...base, idpEntityId: f.idp_entity_id.trim() };
  if (f.idp_sso_url !== undefined) base = { ...base, idpSsoUrl: f.idp_sso_url.trim() };
  if (f.idp_certificate !== undefined) {
    const pem = certificatePem(f.idp_certificate);
    if (!pem) throw invalid('idp_certificate is not an X.509 certificate in PEM.');
    base = { ...base, idpCertificates: [pem] };
  }
  if (!base.idpEntityId) throw invalid('the IdP entity id is missing (give idp_metadata_xml, idp_metadata_url or idp_entity_id).');
  if (!base.idpSsoUrl) throw invalid('the IdP single sign-on URL is missing (give idp_metadata_xml, idp_metadata_url or idp_sso_url).');
  httpUrl(base.idpSsoUrl, 'the IdP single sign-on URL', !services.config.isProduction);
  if (base.idpCertificates.length === 0) throw invalid('the IdP signing certificate is missing (give idp_metadata_xml, idp_metadata_url or idp_certificate).');
  return {
    type: 'saml', ...base,
    allowIdpInitiated: f.allow_idp_initiated ?? current?.allowIdpInitiated ?? false,
    attributeMapping: f.attribute_mapping ?? current?.attributeMapping ?? {},
  };
}

async function oidcSettings(services: Services, f: ConnectionFields, current: OidcSettings | null, clientSecret: string | null): Promise<OidcSettings> {
  const issuer = (f.issuer ?? current?.issuer ?? '').trim();
  const clientId = (f.client_id ?? current?.clientId ?? '').trim();
  if (!issuer) throw invalid('issuer is missing.');
  if (!clientId) throw invalid('client_id is missing.');
  httpUrl(issuer, 'issuer', !services.config.isProduction);
  const settings: OidcSettings = { type: 'oidc', issuer, clientId, attributeMapping: f.attribute_mapping ?? current?.attributeMapping ?? {} };
  // Discovered now: a wrong issuer (or one whose metadata names another issuer) is refused at once.
  await discoverOidc(services, settings, clientSecret).catch((err: Error) => { throw invalid(`the issuer's discovery failed (${err.message}).`); });
  return settings;
}

async function assertTeam(services: Services, { projectId, teamId }: TeamInput) {
  if (!(await teams.findTeam(services.db, projectId, teamId))) throw new KnownErrors.TeamNotFound(teamId);
}

export async function createSsoConnection(services: Services, input: TeamInput & { type: 'saml' | 'oidc'; fields: ConnectionFields }): Promise<sso.SsoConnectionRow> {
  await assertTeam(services, input);
  const f = input.fields;
  if (input.type === 'saml' && (f.issuer !== undefined || f.client_id !== undefined || f.client_secret !== undefined)) throw invalid('issuer, client_id and client_secret are for OIDC connections.');
  const secret = input.type === 'oidc' ? (f.client_secret ?? null) : null;
  const settings: ConnectionSettings = input.type === 'saml' ? await samlSettings(services, f, null) : await oidcSettings(services, f, null, secret);
  const row = await sso.insertConnection(services.db, {
    projectId: input.projectId, teamId: input.teamId, type: input.type,
    displayName: f.display_name ?? (input.type === 'saml' ? 'SAML' : 'OpenID Connect'),
    enabled: f.enabled ?? true, idpEnforcesMfa: f.idp_enforces_mfa ?? false, settings,
    clientSecretSealed: secret ? sealSecret('oauth-client-secret', secret) : null,
  });
  await refreshSsoRequiredDomains(services.db);
  return row;
}

export async function listSsoConnections(services: Services, input: TeamInput): Promise<sso.SsoConnectionRow[]> {
  await assertTeam(services, input);
  return sso.listConnections(services.db, input.projectId, input.teamId);
}

export async function getSsoConnection(services: Services, input: TeamInput & { connectionId: string }): Promise<sso.SsoConnectionRow> {
  const row = await sso.findConnection(services.db, input.projectId, input.connectionId, input.teamId);
  if (!row) throw new KnownErrors.SsoConnectionNotFound(input.connectionId);
  return row;
}

export async function updateSsoConnection(services: Services, input: TeamInput & { connectionId: string; fields: ConnectionFields }): Promise<sso.SsoConnectionRow> {
  const row = await getSsoConnection(services, input);
  const f = input.fields;
  const current = row.settings as ConnectionSettings;
  let settings: ConnectionSettings;
  let clientSecretSealed = row.clientSecretSealed;
  if (current.type === 'saml') {
    if (f.issuer !== undefined || f.client_id !== undefined || f.client_secret !== undefined) throw invalid('issuer, client_id and client_secret are for OIDC connections.');
    settings = await samlSettings(services, f, current);
  } else {
    if (f.client_secret !== undefined) clientSecretSealed = f.client_secret ? sealSecret('oauth-client-secret', f.client_secret) : null;
    const secret = f.client_secret !== undefined ? f.client_secret || null : row.clientSecretSealed ? openSecret('oauth-client-secret', row.clientSecretSealed) : null;
    settings = await oidcSettings(services, f, current, secret);
  }
  const updated = await sso.updateConnection(services.db, row, {
    settings, clientSecretSealed,
    ...(f.display_name !== undefined ? { displayName: f.display_name } : {}),
    ...(f.enabled !== undefined ? { enabled: f.enabled } : {}),
    ...(f.idp_enforces_mfa !== undefined ? { idpEnforcesMfa: f.idp_enforces_mfa } : {}),
  });
  await refreshSsoRequiredDomains(services.db);
  return updated;
}

export async function deleteSsoConnection(services: Services, input: TeamInput & { connectionId: string }): Promise<void> {
  if (!(await sso.deleteConnection(services.db, input.projectId, input.teamId, input.connectionId))) throw new KnownErrors.SsoConnectionNotFound(input.connectionId);
  await refreshSsoRequiredDomains(services.db);
}
