// What an SSO connection's `settings` column holds, by type (db/schema-enterprise.ts `sso_connections`).

export interface AttributeMapping { email?: string; display_name?: string; groups?: string }

export interface SamlSettings {
  type: 'saml';
  idpEntityId: string;
  idpSsoUrl: string;
  /** PEM; several while the IdP rolls its key over. */
  idpCertificates: string[];
  allowIdpInitiated: boolean;
  attributeMapping: AttributeMapping;
}

export interface OidcSettings {
  type: 'oidc';
  issuer: string;
  clientId: string;
  attributeMapping: AttributeMapping;
}

export type ConnectionSettings = SamlSettings | OidcSettings;

/** The Gatehouse side of a SAML connection: its entity id (the metadata URL, as is usual) and its ACS. */
export function spEndpoints(publicUrl: string, connectionId: string) {
  const base = `${publicUrl}/sso/saml/${connectionId}`;
  return { entityId: `${base}/metadata`, metadataUrl: `${base}/metadata`, acsUrl: `${base}/acs` };
}

/** Where an OIDC connection's provider sends the browser back (registered at the provider). */
export function oidcRedirectUri(publicUrl: string, connectionId: string): string {
  return `${publicUrl}/api/v1/auth/sso/callback/${connectionId}`;
}
