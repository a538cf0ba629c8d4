// shared/src/rules (the rules the service applies) worded with the console's catalogue: permission ids, URLs,
// passwords, production mode, JSON. Each returns the catalogue's text, or null when the value is fine.
import { getPasswordError } from '@gatehouse/shared/rules/password';
import {
  CUSTOM_PERMISSION_ID_PATTERN,
  isSystemPermission,
  PERMISSION_ID_PATTERN,
} from '@gatehouse/shared/rules/permissions';
import { getProductionModeErrors, type ProductionModeError } from '@gatehouse/shared/rules/production-mode';
import { URL_CONTAINS_SPACES, urlProblems } from '@gatehouse/shared/rules/urls';
import { t } from '../messages';
import { errorSentence } from './error-text';

/** A permission id of a grant or a containment (system ids allowed), as the service checks it. */
export function permissionIdText(id: string): string | null {
  if (!PERMISSION_ID_PATTERN.test(id)) return t('validation.permissionId');
  if (id.startsWith('$') && !isSystemPermission(id)) return t('validation.systemPermission');
  return null;
}

/** The id of a custom definition (no `$`). */
export function customPermissionIdText(id: string): string | null {
  return CUSTOM_PERMISSION_ID_PATTERN.test(id) ? null : t('validation.customPermissionId');
}

/** A URL field's first problem, named after the field ("Profile image URL contains spaces"). */
export function urlText(field: string, value: string): string | null {
  const problem = urlProblems(value)[0];
  if (problem === undefined) return null;
  return t(problem === URL_CONTAINS_SPACES ? 'validation.urlSpaces' : 'validation.urlInvalid', { field });
}

/** A password being set: the service's length rule, worded as its known error would be. */
export function passwordText(password: string): string | null {
  const error = getPasswordError(password);
  return error ? errorSentence(error) : null;
}

export function productionModeText(error: ProductionModeError): string {
  return t(`validation.production.${error.problem}`, { domain: error.domain ?? '' });
}

/** What production mode would say about one domain ("localhost", IP addresses, non-HTTPS), or null. */
export function domainProductionText(domain: string): string | null {
  const [error] = getProductionModeErrors({ id: '', config: { allow_localhost: false, domains: [{ domain }] } });
  return error ? productionModeText(error) : null;
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; text: string };

/** A metadata editor's text: empty means null (no metadata); anything else must be JSON. */
export function parseJsonText(text: string): ParsedJson {
  if (!text.trim()) return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, text: t('validation.json') };
  }
}
