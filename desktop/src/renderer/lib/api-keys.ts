// API key sets: expiry choices, the create form's validation (the service's schema; at least one key) and each
// set's state as seed §4 defines it (expired first, then manually revoked).
import { ApiKeySetCreate } from '@gatehouse/shared/schemas/api-keys';
import { apiKeyStatus, type ApiKeyStatus } from '@gatehouse/shared/rules/api-keys';
import type { InternalApiKey, InternalApiKeyCreateOptions } from '@gatehouse/shared/client';
import { schemaProblems } from './schema-check';

export const EXPIRY_CHOICES = ['1', '7', '30', '90', '365', 'never'] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number];

export function expiryDate(choice: ExpiryChoice, now = Date.now()): Date {
  const days = choice === 'never' ? 100 * 365 : Number(choice);
  return new Date(now + days * 86_400_000);
}

export interface KeyFormValues {
  description: string;
  expiresIn: ExpiryChoice;
  publishable: boolean;
  secret: boolean;
  admin: boolean;
}

export function keyCreateOptions(v: KeyFormValues, now = Date.now()): InternalApiKeyCreateOptions {
  return {
    description: v.description.trim(),
    expiresAt: expiryDate(v.expiresIn, now),
    hasPublishableClientKey: v.publishable,
    hasSecretServerKey: v.secret,
    hasSuperSecretAdminKey: v.admin,
  };
}

export function validateKeyForm(v: KeyFormValues, messages: { required: string; atLeastOne: string }): Record<string, string> {
  const o = keyCreateOptions(v);
  const errors: Record<string, string> = {};
  const wire = {
    description: o.description, expires_at_millis: o.expiresAt.getTime(),
    has_publishable_client_key: o.hasPublishableClientKey, has_secret_server_key: o.hasSecretServerKey, has_super_secret_admin_key: o.hasSuperSecretAdminKey,
  };
  for (const p of schemaProblems(ApiKeySetCreate, wire)) errors[p.path === '/description' ? 'description' : 'expiresIn'] ??= p.text;
  if (!o.description) errors.description = messages.required;
  if (!v.publishable && !v.secret && !v.admin) errors.admin = messages.atLeastOne;
  return errors;
}

export function keyState(key: InternalApiKey, now = Date.now()): ApiKeyStatus {
  return apiKeyStatus({ expires_at_millis: key.expiresAt.getTime(), manually_revoked_at_millis: key.manuallyRevokedAt?.getTime() }, now);
}

/** The "…last four" list of a set's keys. */
export function keyLastFours(key: InternalApiKey): { kind: 'publishable' | 'secret' | 'admin'; lastFour: string }[] {
  const out: { kind: 'publishable' | 'secret' | 'admin'; lastFour: string }[] = [];
  if (key.publishableClientKey) out.push({ kind: 'publishable', lastFour: key.publishableClientKey.lastFour });
  if (key.secretServerKey) out.push({ kind: 'secret', lastFour: key.secretServerKey.lastFour });
  if (key.superSecretAdminKey) out.push({ kind: 'admin', lastFour: key.superSecretAdminKey.lastFour });
  return out;
}
