// Before a project connection is kept: does its admin key open the project? When the key is refused, the project's
// public keys tell whether the id names a project of that service, so the form can say which field is wrong.
import { KnownError } from '@gatehouse/shared/known-errors';
import { projectExists, type FetchLike, type GatehouseAdminApp } from '@gatehouse/shared/client';
import type { MessageKey } from '../messages';

export type ConnectionProblem =
  | { field: 'projectId'; key: MessageKey }
  | { field: 'adminKey' | 'serviceUrl'; error: unknown };

export async function projectConnectionProblem(
  app: GatehouseAdminApp, probe: { baseUrl: string; projectId: string; fetch?: FetchLike },
): Promise<ConnectionProblem | null> {
  try {
    await app.adminReads.project().get();
    return null;
  } catch (error) {
    if (!(error instanceof KnownError)) return { field: 'serviceUrl', error };
    if (error.errorCode !== 'INVALID_SUPER_SECRET_ADMIN_KEY' && error.errorCode !== 'PROJECT_NOT_FOUND') return { field: 'adminKey', error };
    return (await projectExists(probe).catch(() => true)) ? { field: 'adminKey', error } : { field: 'projectId', key: 'connect.projectUnknown' };
  }
}
