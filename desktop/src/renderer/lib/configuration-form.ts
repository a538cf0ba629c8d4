// The configuration form's values ↔ the admin project, its validation against the service's schema, and the
// production-mode problems of each trusted domain (shared/src/rules/production-mode.ts).
import type { AdminProject, AdminProjectUpdateOptions } from '@gatehouse/shared/client';
import { adminProjectUpdateToWire } from '@gatehouse/shared/client/models/projects';
import { getProductionModeErrors } from '@gatehouse/shared/rules/production-mode';
import { ProjectUpdate } from '@gatehouse/shared/schemas/projects';
import { domainProductionText, productionModeText } from './field-rules';
import { formErrors, schemaProblems } from './schema-check';
import { t } from '../messages';

export const CONFIG_SWITCHES = [
  'signUpEnabled', 'credentialEnabled', 'magicLinkEnabled', 'passkeyEnabled',
  'clientTeamCreationEnabled', 'clientUserDeletionEnabled', 'createTeamOnSignUp', 'allowLocalhost',
] as const;
export type ConfigSwitch = (typeof CONFIG_SWITCHES)[number];
export const MERGE_STRATEGIES = ['link_method', 'raise_error', 'allow_duplicates'] as const;

export type ConfigurationValues = Record<ConfigSwitch, boolean> & {
  displayName: string;
  description: string;
  oauthAccountMergeStrategy: (typeof MERGE_STRATEGIES)[number];
  domains: { domain: string; handlerPath: string }[];
};

export function configurationValues(p: AdminProject): ConfigurationValues {
  const c = p.config;
  return {
    displayName: p.displayName,
    description: p.description ?? '',
    signUpEnabled: c.signUpEnabled,
    credentialEnabled: c.credentialEnabled,
    magicLinkEnabled: c.magicLinkEnabled,
    passkeyEnabled: c.passkeyEnabled,
    clientTeamCreationEnabled: c.clientTeamCreationEnabled,
    clientUserDeletionEnabled: c.clientUserDeletionEnabled,
    createTeamOnSignUp: c.createTeamOnSignUp,
    allowLocalhost: c.allowLocalhost,
    oauthAccountMergeStrategy: c.oauthAccountMergeStrategy,
    domains: c.domains.map((d) => ({ domain: d.domain, handlerPath: d.handlerPath })),
  };
}

export function configurationUpdate(v: ConfigurationValues): AdminProjectUpdateOptions {
  return {
    displayName: v.displayName.trim(),
    description: v.description.trim() || null,
    config: {
      ...Object.fromEntries(CONFIG_SWITCHES.map((k) => [k, v[k]])),
      oauthAccountMergeStrategy: v.oauthAccountMergeStrategy,
      domains: v.domains.map((d) => ({ domain: d.domain.trim(), handlerPath: d.handlerPath.trim() })),
    },
  };
}

/** Form errors (keyed like the form: "displayName", "domains.0.domain"…) from the service's own schema. */
export function validateConfiguration(v: ConfigurationValues): Record<string, string> {
  const problems = schemaProblems(ProjectUpdate, adminProjectUpdateToWire(configurationUpdate(v)));
  const fields: Record<string, string> = { '/display_name': 'displayName', '/description': 'description' };
  v.domains.forEach((_, i) => {
    fields[`/config/domains/${i}/domain`] = `domains.${i}.domain`;
    fields[`/config/domains/${i}/handler_path`] = `domains.${i}.handlerPath`;
  });
  const errors = formErrors(problems, fields);
  if (!v.displayName.trim()) errors.displayName ??= t('projects.nameRequired');
  return errors;
}

/** What production mode would say about one domain ("localhost", IP addresses, non-HTTPS), or null. */
export const domainProductionProblem = domainProductionText;

/** The production-mode errors of the saved project, in the catalogue's words. */
export function productionModeErrors(p: AdminProject): string[] {
  return getProductionModeErrors({ id: p.id, config: { allow_localhost: p.config.allowLocalhost, domains: p.config.domains.map((d) => ({ domain: d.domain })) } }).map(productionModeText);
}
