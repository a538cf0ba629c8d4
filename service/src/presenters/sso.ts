// A team's SSO connection as the server and admin API shows it (shared/src/schemas/team-enterprise.ts): the IdP's
// settings, and what to configure at the IdP (the SP entity id, ACS and metadata URL; the OIDC redirect URI). The
// OIDC client secret is never shown, only whether there is one.
import type { SsoConnection } from '@gatehouse/shared/schemas/team-enterprise';
import type { SsoConnectionRow } from '../repo/sso';

interface StoredSettings {
  type: 'saml' | 'oidc';
  idpEntityId?: string; idpSsoUrl?: string; idpCertificates?: string[]; allowIdpInitiated?: boolean;
  issuer?: string; clientId?: string;
  attributeMapping?: SsoConnection['attribute_mapping'];
}

export function ssoConnectionView(row: SsoConnectionRow, publicUrl: string): SsoConnection {
  const s = row.settings as StoredSettings;
  const saml = row.type === 'saml';
  const spBase = `${publicUrl}/sso/saml/${row.id}`;
  return {
    id: row.id, team_id: row.teamId, type: saml ? 'saml' : 'oidc', display_name: row.displayName, enabled: row.enabled,
    idp_enforces_mfa: row.idpEnforcesMfa, attribute_mapping: s.attributeMapping ?? {}, created_at_millis: row.createdAt.getTime(),
    idp_entity_id: saml ? s.idpEntityId ?? null : null,
    idp_sso_url: saml ? s.idpSsoUrl ?? null : null,
    idp_certificate: saml ? s.idpCertificates?.[0] ?? null : null,
    allow_idp_initiated: saml ? s.allowIdpInitiated ?? false : false,
    sp_entity_id: saml ? `${spBase}/metadata` : null,
    acs_url: saml ? `${spBase}/acs` : null,
    sp_metadata_url: saml ? `${spBase}/metadata` : null,
    issuer: saml ? null : s.issuer ?? null,
    client_id: saml ? null : s.clientId ?? null,
    has_client_secret: row.clientSecretSealed !== null,
    redirect_uri: saml ? null : `${publicUrl}/api/v1/auth/sso/callback/${row.id}`,
  };
}
