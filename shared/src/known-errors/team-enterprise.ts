// Known errors of teams as customer organizations (issue 28): verified domains and SCIM tokens. (SCIM's own
// endpoints answer in SCIM's error format, RFC 7644 §3.12, not with these.)
import { defineKnownError as def } from './base.ts';

/** 400: the text is not a domain an email address can be at. */
export const InvalidEmailDomain = def('INVALID_EMAIL_DOMAIN', 400, [], (domain: string) => [
  `"${domain}" is not a valid email domain. Give a domain name such as example.com, without a scheme, path or port.`,
  { domain },
] as const);

/** 409: the team has already claimed this domain. */
export const TeamDomainAlreadyClaimed = def('TEAM_DOMAIN_ALREADY_CLAIMED', 409, [], (domain: string) => [
  `This team has already claimed ${domain}.`,
  { domain },
] as const);

/** 409: another team of the project verified this domain first; a domain belongs to one team at most. */
export const DomainVerifiedByAnotherTeam = def('DOMAIN_VERIFIED_BY_ANOTHER_TEAM', 409, [], (domain: string) => [
  `${domain} is already verified by another team of this project. A domain can belong to one team only.`,
  { domain },
] as const);

/** 404: no such domain claim on this team. */
export const TeamDomainNotFound = def('TEAM_DOMAIN_NOT_FOUND', 404, [], (domainId: string) => [
  `The team has no domain with id ${domainId}.`,
  { domain_id: domainId },
] as const);

/** 400: the DNS TXT record was not found (or did not carry the challenge); `problem` says what the lookup saw. */
export const DomainVerificationFailed = def('DOMAIN_VERIFICATION_FAILED', 400, [], (domain: string, recordName: string, problem: string) => [
  `${domain} could not be verified: ${problem} Add a TXT record at ${recordName} with the value shown, wait for DNS to update, and try again.`,
  { domain, record_name: recordName, problem },
] as const);

/** 404: no such SCIM token on this team. */
export const ScimTokenNotFound = def('SCIM_TOKEN_NOT_FOUND', 404, [], (tokenId: string) => [
  `The team has no SCIM token with id ${tokenId}.`,
  { token_id: tokenId },
] as const);

/** 404: no such SCIM group on this team. */
export const ScimGroupNotFound = def('SCIM_GROUP_NOT_FOUND', 404, [], (groupId: string) => [
  `The team has no SCIM group with id ${groupId}.`,
  { group_id: groupId },
] as const);

/** 404: no such SSO connection on this team. */
export const SsoConnectionNotFound = def('SSO_CONNECTION_NOT_FOUND', 404, [], (connectionId: string) => [
  `The team has no SSO connection with id ${connectionId}.`,
  { connection_id: connectionId },
] as const);

/** 400: the connection's settings are incomplete or not usable; `problem` says which. */
export const InvalidSsoConnection = def('INVALID_SSO_CONNECTION', 400, [], (problem: string) => [
  `The SSO connection cannot be used: ${problem}`,
  { problem },
] as const);

/** 404: no team of the project signs this address in with SSO (its domain is not verified, or has no enabled connection). */
export const SsoNotConfigured = def('SSO_NOT_CONFIGURED', 404, [], (email: string) => [
  `There is no single sign-on for ${email}. Sign in another way, or ask your organization's administrator.`,
  { email },
] as const);

/**
 * 403: the address's organization requires single sign-on; sign in through it (GET /auth/sso/authorize with the
 * email). Password, code and OAuth sign-in for the address are refused.
 */
export const SsoRequired = def('SSO_REQUIRED', 403, [], (email: string) => [
  `Your organization requires single sign-on for ${email}. Continue with SSO.`,
  { email },
] as const);

/** 401: the identity provider's answer was refused (a bad signature, audience, time, replay...); `reason` says why. */
export const SsoSignInFailed = def('SSO_SIGN_IN_FAILED', 401, [], (reason: string) => [
  `Single sign-on failed: ${reason} Try again, or ask your organization's administrator.`,
  { reason },
] as const);

/** 409: the team has a group of this name already (names are compared case-insensitively). */
export const ScimGroupNameTaken = def('SCIM_GROUP_NAME_TAKEN', 409, [], (displayName: string) => [
  `The team already has a group named ${displayName}.`,
  { display_name: displayName },
] as const);
