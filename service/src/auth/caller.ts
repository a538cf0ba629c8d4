// Who a request acts for, as the use cases take it: the project, the access type and, with an access token, the
// signed-in user and their session. http/request-access.ts reads it from the request's headers; a use case never
// sees the request itself.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import type { Project } from '../repo/projects';
import * as users from '../repo/users';
import type { UserRow } from '../repo/users';

export type AccessType = 'client' | 'server' | 'admin';

export interface Caller {
  type: AccessType;
  project: Project;
  /** `sub` of the request's access token; the user may no longer exist. */
  userId?: string;
  /** The session (refresh-token record) the access token was minted for. */
  sessionId?: string;
  /** With an admin access token: the internal-project user (project owner) it belongs to (for the audit log). */
  adminUserId?: string;
}

/** `me` as the caller's user (CANNOT_GET_OWN_USER_WITHOUT_USER without one); any other id as it is. */
export function resolveMe(caller: Pick<Caller, 'userId'>, idOrMe: string): string {
  if (idOrMe !== 'me') return idOrMe;
  if (!caller.userId) throw new KnownErrors.CannotGetOwnUserWithoutUser();
  return caller.userId;
}

const signedIn = new WeakMap<Caller, Promise<UserRow | null>>();

/**
 * The caller's signed-in user, or null (no access token, or its user no longer exists). A Caller stands for one
 * request: its user is loaded once, whoever asks (the route's `user()` too).
 */
export function signedInUser(services: Pick<Services, 'db'>, caller: Caller): Promise<UserRow | null> {
  let user = signedIn.get(caller);
  if (!user) signedIn.set(caller, (user = caller.userId ? users.load(services.db, caller.project.id, caller.userId) : Promise.resolve(null)));
  return user;
}

/** `signedInUser`, or `missing()` thrown without one (default CANNOT_GET_OWN_USER_WITHOUT_USER). */
export async function requireSignedInUser(services: Pick<Services, 'db'>, caller: Caller, missing: () => Error = () => new KnownErrors.CannotGetOwnUserWithoutUser()): Promise<UserRow> {
  const user = await signedInUser(services, caller);
  if (!user) throw missing();
  return user;
}
