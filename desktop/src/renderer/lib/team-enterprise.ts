// Rules of the Enterprise SSO tab (issue 28), pure: the domain field's check (the service's own rule from shared/),
// what a new connection needs before it is sent, and the SCIM base URL a token belongs to.
import { normalizeEmailDomain } from '@gatehouse/shared/rules/email-domains';
import type { MessageKey } from '../messages';

/** The problem with a typed domain, or null when the service will take it. */
export function domainProblem(value: string): MessageKey | null {
  if (!value.trim()) return 'common.required';
  return normalizeEmailDomain(value) ? null : 'enterprise.domainInvalid';
}

export interface SamlFormValues { displayName: string; metadataXml: string; metadataUrl: string; idpEnforcesMfa: boolean }
export interface OidcFormValues { displayName: string; issuer: string; clientId: string; clientSecret: string; idpEnforcesMfa: boolean }

/** A SAML connection needs its IdP's metadata, pasted or by URL. */
export function samlFormProblems(v: SamlFormValues): Partial<Record<keyof SamlFormValues, MessageKey>> {
  return !v.metadataXml.trim() && !v.metadataUrl.trim() ? { metadataXml: 'enterprise.metadataRequired' } : {};
}

export function oidcFormProblems(v: OidcFormValues): Partial<Record<keyof OidcFormValues, MessageKey>> {
  const problems: Partial<Record<keyof OidcFormValues, MessageKey>> = {};
  if (!v.issuer.trim()) problems.issuer = 'common.required';
  if (!v.clientId.trim()) problems.clientId = 'common.required';
  return problems;
}

/** `{service}/scim/v2/{team}`: what the identity provider's provisioning settings take as the base URL. */
export function scimBaseUrl(serviceUrl: string, teamId: string): string {
  return `${serviceUrl.replace(/\/$/, '')}/scim/v2/${teamId}`;
}
