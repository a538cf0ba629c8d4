// A project's API key sets (/internal/api-keys, admin): each holds up to three keys (publishable client, secret
// server, super secret admin), stored hashed; their values exist only in the answer that created them.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { generateApiKey } from '@gatehouse/shared/rules/codes';
import type { Services } from '../services';
import * as apiKeys from '../repo/project-keys';

export interface NewKeySet {
  projectId: string;
  description: string;
  expiresAt: Date;
  publishableClientKey: boolean;
  secretServerKey: boolean;
  superSecretAdminKey: boolean;
}

/** The new set and its keys' values (shown only now). */
export async function createKeySet(services: Services, input: NewKeySet): Promise<{ row: apiKeys.KeySetRow; keys: Partial<Record<apiKeys.KeyKind, string>> }> {
  const keys = {
    ...(input.publishableClientKey ? { publishable_client_key: generateApiKey('pck') } : {}),
    ...(input.secretServerKey ? { secret_server_key: generateApiKey('ssk') } : {}),
    ...(input.superSecretAdminKey ? { super_secret_admin_key: generateApiKey('sak') } : {}),
  };
  const row = await apiKeys.insert(services.db, { projectId: input.projectId, description: input.description, expiresAt: input.expiresAt, keys });
  return { row, keys };
}

export async function listKeySets(services: Services, input: { projectId: string }): Promise<apiKeys.KeySetRow[]> {
  return apiKeys.listForProject(services.db, input.projectId);
}

export async function getKeySet(services: Services, input: { projectId: string; id: string }): Promise<apiKeys.KeySetRow> {
  const row = await apiKeys.find(services.db, input.projectId, input.id);
  if (!row) throw new KnownErrors.ApiKeyNotFound();
  return row;
}

/** Changes the description, or revokes the set (one way; its keys stop working at once on every instance). */
export async function updateKeySet(services: Services, input: { projectId: string; id: string; description?: string; revoke?: boolean }): Promise<apiKeys.KeySetRow> {
  const row = await apiKeys.update(services.db, input.projectId, input.id, { description: input.description, revoke: input.revoke });
  if (!row) throw new KnownErrors.ApiKeyNotFound();
  if (input.revoke) services.apiKeys.invalidate(input.projectId);
  return row;
}
