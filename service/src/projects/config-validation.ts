// Validation and merging of project config updates (protocol-resources §10.3), without I/O: callers gather the
// facts the rules need (existing permission definitions, whether custom email templates exist) and pass them in.
// Used by PATCH /projects/current and POST /internal/projects.
import { isSharedOAuthProviderId } from '@gatehouse/shared/constants';
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import { isSystemPermission } from '@gatehouse/shared/rules/permissions';
import { DESKTOP_CONSOLE_RETURN_PATH, type RedirectTrustConfig } from '@gatehouse/shared/rules/urls';
import type { EmailConfig, OAuthProviderConfig, ProjectConfigDocument, ProjectConfigUpdate } from '@gatehouse/shared/schemas/projects';

const STANDARD_EMAIL_FIELDS = ['host', 'port', 'username', 'password', 'sender_name', 'sender_email'] as const;

export const MESSAGES = {
  duplicatedDomain: 'Duplicated domain found',
  duplicatedProvider: (id: string) => `Duplicated OAuth provider found: ${id}`,
  providerMissing: (id: string) => `Provider with id '${id}' not found in the update`,
  sharedEmailWithTemplates:
    'Cannot change email service type to shared when custom templates are defined. Disable custom templates first, before changing the email service type.',
  invalidTeamDefaults: 'Invalid team default permission ids',
  invalidUserDefaults: (ids: string[]) => `Invalid user default permission ids: ${ids.join(', ')}`,
} as const;

export interface ConfigFacts {
  /** Ids of the project's custom TEAM-scope permission definitions (system `$…` ids are always valid). */
  teamPermissionIds: ReadonlySet<string>;
  /** Ids of the project's PROJECT-scope permission definitions. */
  projectPermissionIds: ReadonlySet<string>;
  /** Whether the project has customised any email template. */
  hasCustomEmailTemplates: boolean;
}

/**
 * Problems the request schema cannot express (conditional requirements), worded as SCHEMA_ERROR lines:
 * a standard email config needs every field, a standard OAuth provider needs its client id and secret.
 * (The original only required the credentials of *enabled* standard providers, and then failed with a 500 on
 * a disabled one without them; they are required for every standard provider here.)
 */
export function configSchemaProblems(update: ProjectConfigUpdate, path = 'body.config'): string[] {
  const problems: string[] = [];
  const e = update.email_config;
  if (e?.type === 'standard') {
    for (const field of STANDARD_EMAIL_FIELDS) {
      const v = e[field];
      if (v === undefined) problems.push(`${path}.email_config.${field} must be defined`);
      else if (typeof v === 'string' && v.trim() === '') problems.push(`${path}.email_config.${field} must not be empty`);
    }
  }
  update.oauth_providers?.forEach((p, i) => {
    if (p.type !== 'standard') return;
    for (const field of ['client_id', 'client_secret'] as const) {
      const v = p[field];
      if (v === undefined) problems.push(`${path}.oauth_providers[${i}].${field} must be defined`);
      else if (v.trim() === '') problems.push(`${path}.oauth_providers[${i}].${field} must not be empty`);
    }
  });
  return problems;
}

/** Domains compare by scheme, host and path without trailing slash ("https://A.com/" = "https://a.com"). */
export function domainKey(domain: string): string {
  try {
    const u = new URL(domain);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`.toLowerCase();
  } catch {
    return domain.trim().toLowerCase();
  }
}

function mergeProviders(current: OAuthProviderConfig[], update: OAuthProviderConfig[]): OAuthProviderConfig[] {
  const seen = new Set<string>();
  for (const p of update) {
    if (seen.has(p.id)) throw new StatusError(400, MESSAGES.duplicatedProvider(p.id));
    seen.add(p.id);
    if (p.type === 'shared' && !isSharedOAuthProviderId(p.id)) throw new KnownErrors.InvalidSharedOAuthProviderId(p.id);
  }
  // A provider, once added, stays listed (it can only be disabled).
  for (const p of current) if (!seen.has(p.id)) throw new StatusError(400, MESSAGES.providerMissing(p.id));
  return update.map((p): OAuthProviderConfig => {
    if (p.type === 'shared') return { id: p.id, type: 'shared', enabled: p.enabled };
    return {
      id: p.id, type: 'standard', enabled: p.enabled, client_id: p.client_id!, client_secret: p.client_secret!,
      ...(p.facebook_config_id ? { facebook_config_id: p.facebook_config_id } : {}),
      ...(p.microsoft_tenant_id ? { microsoft_tenant_id: p.microsoft_tenant_id } : {}),
    };
  });
}

function toEmailConfig(e: NonNullable<ProjectConfigUpdate['email_config']>): EmailConfig {
  if (e.type === 'shared') return { type: 'shared' };
  return {
    type: 'standard', host: e.host!, port: e.port!, username: e.username!, password: e.password!,
    sender_name: e.sender_name!, sender_email: e.sender_email!,
    // Only when said, so a config the SDK wrote reads back exactly as written.
    ...(e.require_tls !== undefined ? { require_tls: e.require_tls } : {}),
  };
}

function uniqueRefs(refs: { id: string }[]): { id: string }[] {
  return [...new Set(refs.map((r) => r.id))].map((id) => ({ id }));
}

/**
 * Applies an update to a config: only the keys present change; lists (domains, providers, default
 * permissions) and the email config are replaced as a whole. Throws the protocol's 400 errors.
 * Call `configSchemaProblems` first; this assumes the conditional requirements hold.
 */
export function applyConfigUpdate(current: ProjectConfigDocument, update: ProjectConfigUpdate, facts: ConfigFacts): ProjectConfigDocument {
  const next: ProjectConfigDocument = { ...current };
  for (const key of [
    'allow_localhost', 'sign_up_enabled', 'credential_enabled', 'magic_link_enabled', 'passkey_enabled',
    'client_team_creation_enabled', 'client_user_deletion_enabled', 'create_team_on_sign_up', 'allow_user_api_keys',
    'allow_team_api_keys',
  ] as const) {
    if (update[key] !== undefined) next[key] = update[key]!;
  }
  if (update.oauth_account_merge_strategy !== undefined) next.oauth_account_merge_strategy = update.oauth_account_merge_strategy;

  if (update.oauth_providers !== undefined) next.oauth_providers = mergeProviders(current.oauth_providers, update.oauth_providers);

  if (update.email_config !== undefined) {
    if (update.email_config.type === 'shared' && facts.hasCustomEmailTemplates) throw new StatusError(400, MESSAGES.sharedEmailWithTemplates);
    next.email_config = toEmailConfig(update.email_config);
  }

  if (update.domains !== undefined) {
    const keys = new Set<string>();
    for (const d of update.domains) {
      const k = domainKey(d.domain);
      if (keys.has(k)) throw new StatusError(400, MESSAGES.duplicatedDomain);
      keys.add(k);
    }
    next.domains = update.domains.map((d) => ({ domain: d.domain, handler_path: d.handler_path }));
  }

  const validTeamId = (id: string) => isSystemPermission(id) || facts.teamPermissionIds.has(id);
  for (const key of ['team_creator_default_permissions', 'team_member_default_permissions'] as const) {
    const refs = update[key];
    if (refs === undefined) continue;
    if (!refs.every((r) => validTeamId(r.id))) throw new StatusError(400, MESSAGES.invalidTeamDefaults);
    next[key] = uniqueRefs(refs);
  }
  if (update.user_default_permissions !== undefined) {
    const refs = uniqueRefs(update.user_default_permissions);
    const invalid = refs.map((r) => r.id).filter((id) => !facts.projectPermissionIds.has(id));
    if (invalid.length) throw new StatusError(400, MESSAGES.invalidUserDefaults(invalid));
    next.user_default_permissions = refs;
  }
  return next;
}

/**
 * Whether the project trusts localhost (redirects to it, passkeys on it). A project in production mode does not,
 * whatever `allow_localhost` says (ASVS 5.1.5): the reference stores both flags and only lists the combination
 * among the production-mode errors, which the console and the SDK's dashboard still show; trust is decided here.
 */
/**
 * Which redirect and callback URLs the project trusts (protocol-auth §5.3). The internal project also trusts the
 * desktop console's loopback return (RFC 8252 §7.3), in production too: its owners sign in from the desktop app.
 */
export function redirectTrust(project: { id: string; isProductionMode: boolean; config: Pick<ProjectConfigDocument, 'allow_localhost' | 'domains'> }): RedirectTrustConfig {
  return {
    allowLocalhost: trustsLocalhost(project),
    domains: project.config.domains,
    ...(project.id === 'internal' ? { nativeLoopbackPath: DESKTOP_CONSOLE_RETURN_PATH } : {}),
  };
}

export function trustsLocalhost(project: { isProductionMode: boolean; config: Pick<ProjectConfigDocument, 'allow_localhost'> }): boolean {
  return project.config.allow_localhost && !project.isProductionMode;
}
