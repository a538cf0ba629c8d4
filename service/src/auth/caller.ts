// Who a request acts for, as the use cases take it: the project, the access type and, with an access token, the
// signed-in user and their session. http/request-access.ts reads it from the request's headers; a use case never
// sees the request itself.
import type { Project } from '../repo/projects';

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
