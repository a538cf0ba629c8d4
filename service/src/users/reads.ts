// Reading users (protocol-resources §1.1): one by id, and the keyset-paginated list of GET /users.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as users from '../repo/users';

/** The user, or USER_NOT_FOUND. */
export async function getUser(services: Pick<Services, 'db'>, input: { projectId: string; userId: string }): Promise<users.UserRow> {
  const row = await users.load(services.db, input.projectId, input.userId);
  if (!row) throw new KnownErrors.UserNotFound();
  return row;
}

/**
 * GET /users page sizes: omitted → 100 (the protocol's "everything in one page" let one request read a whole
 * project); larger → 1,000 with `next_cursor` set (ASVS 11.1.5: bounded bulk reads).
 */
export const USER_PAGE_DEFAULT = 100;
export const USER_PAGE_MAX = 1000;

export interface UserListing extends users.UserFilter { projectId: string; cursor?: string; limit?: number; desc?: boolean; query?: string; teamId?: string }

export async function listUsers(services: Pick<Services, 'db' | 'activity'>, input: UserListing): Promise<{ items: users.UserRow[]; nextCursor: string | null }> {
  // Sign-ins of the last second are still in memory (auth/activity.ts): written first when the filter asks for them.
  if (input.signedInWithinDays !== undefined) await services.activity.flush();
  const { projectId, limit, ...options } = input;
  return users.list(services.db, projectId, { ...options, limit: Math.min(limit ?? USER_PAGE_DEFAULT, USER_PAGE_MAX) });
}
