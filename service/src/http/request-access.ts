// Project authentication from the x-stack-* headers, in the documented order of checks (protocol-auth §1.3).
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import type { Project } from '../repo/projects';
import type { AccessType, Caller } from '../auth/caller';
import type { KeyKind } from '../repo/project-keys';
import * as users from '../repo/users';
import { STACK_HEADERS } from '@gatehouse/shared/constants';
import { administeredProjectIds } from '../projects/ownership';

/** The caller the route hands its use case (auth/caller.ts). */
export type Auth = Caller;
export type { AccessType };

/** Reads a header; an empty value counts as absent (server/admin SDKs send empty key headers). */
function header(headers: Headers, name: string): string | undefined {
  const v = headers.get(name);
  return v === null || v === '' ? undefined : v;
}

const keyRequirement: Record<AccessType, { header: string; kind: KeyKind; missing: () => Error; invalid: (projectId: string) => Error }> = {
  client: { header: STACK_HEADERS.publishableClientKey, kind: 'publishable_client_key', missing: () => new KnownErrors.ClientAuthenticationRequired(), invalid: (p) => new KnownErrors.InvalidPublishableClientKey(p) },
  server: { header: STACK_HEADERS.secretServerKey, kind: 'secret_server_key', missing: () => new KnownErrors.ServerAuthenticationRequired(), invalid: (p) => new KnownErrors.InvalidSecretServerKey(p) },
  admin: { header: STACK_HEADERS.superSecretAdminKey, kind: 'super_secret_admin_key', missing: () => new KnownErrors.AdminAuthenticationRequired(), invalid: (p) => new KnownErrors.InvalidSuperSecretAdminKey(p) },
};

export async function authenticate(services: Services, headers: Headers): Promise<Auth | null> {
  const projectId = header(headers, STACK_HEADERS.projectId);
  const accessToken = header(headers, STACK_HEADERS.accessToken);

  const type = header(headers, STACK_HEADERS.accessType);
  let claims: { sub: string; aud: string; refreshTokenId: string } | undefined;
  if (projectId && accessToken) {
    claims = await services.tokens.verify(accessToken);
    if (claims.aud !== projectId) throw new KnownErrors.InvalidProjectForAccessToken(projectId, claims.aud);
    if (services.revokedSessions.has(claims.refreshTokenId)) {
      // A revoked session's tokens are refused at once on client access: "expired" makes clients refresh, which then
      // fails. With a server or admin key the key decides (issue 30 §5a): the token is ignored and the request runs
      // without a user, as the reference runs it for a deleted user's token.
      if (type !== 'server' && type !== 'admin') throw new KnownErrors.AccessTokenExpired(null);
      claims = undefined;
    }
  }

  const adminAccessToken = header(headers, STACK_HEADERS.adminAccessToken);
  if (!type) {
    const anyKey = [STACK_HEADERS.publishableClientKey, STACK_HEADERS.secretServerKey, STACK_HEADERS.superSecretAdminKey]
      .some((h) => header(headers, h)) || adminAccessToken;
    if (anyKey) throw new KnownErrors.ProjectKeyWithoutAccessType();
    return null;
  }
  if (type !== 'client' && type !== 'server' && type !== 'admin') throw new KnownErrors.InvalidAccessType(type);
  if (!projectId) throw new KnownErrors.AccessTypeWithoutProjectId(type);

  let project: Project | null;
  let adminUserId: string | undefined;
  if (adminAccessToken) {
    ({ project, ownerId: adminUserId } = await checkAdminAccessToken(services, adminAccessToken, projectId));
  } else {
    const req = keyRequirement[type];
    const key = header(headers, req.header);
    if (!key) throw req.missing();
    if (!(await services.apiKeys.isValid(projectId, req.kind, key))) throw req.invalid(projectId);
    project = await services.projects.get(projectId);
    // A key's cached validity can outlive its deleted project for a moment; no project means no valid key.
    if (!project) throw req.invalid(projectId);
  }
  if (!project) throw new KnownErrors.ProjectNotFound(projectId);
  return { type, project, userId: claims?.sub, sessionId: claims?.refreshTokenId, ...(adminUserId ? { adminUserId } : {}) };
}

/** An internal-project user's access token grants access to the projects listed in their managedProjectIds (and the
 *  demo project in development: projects/ownership.ts). */
async function checkAdminAccessToken(services: Services, token: string, projectId: string): Promise<{ project: Project | null; ownerId: string }> {
  const claims = await services.tokens.verify(token, { admin: true });
  if (claims.aud !== 'internal') throw new KnownErrors.AdminAccessTokenIsNotAdmin();
  const owner = await users.findAdminOwner(services.db, claims.sub);
  // A deleted owner gets the protocol's own text (protocol-auth §1.4) even though their sessions are revoked too;
  // this path reads the owner anyway, so the order costs nothing.
  if (owner === undefined) {
    throw new StatusError(401, 'The user associated with the admin access token is no longer valid. Please refresh the admin access token and try again.');
  }
  if (services.revokedSessions.has(claims.refreshTokenId)) throw new KnownErrors.AdminAccessTokenExpired(null);
  if (!administeredProjectIds(owner.serverMetadata, services.config).includes(projectId)) throw new KnownErrors.AdminAccessTokenIsNotAdmin();
  // GATEHOUSE_OWNER_MFA_REQUIRED (ASVS 4.3.1): a stolen owner password alone must not open the admin plane.
  if (services.config.ownerMfaRequired && !owner.hasMfa) throw new KnownErrors.OwnerMfaRequired();
  const project = await services.projects.get(projectId);
  if (!project) throw new KnownErrors.InvalidProjectForAdminAccessToken();
  return { project, ownerId: claims.sub };
}
