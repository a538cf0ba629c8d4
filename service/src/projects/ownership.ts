// Who owns a project (protocol-resources §10): the internal project's users list the projects they own in their
// server metadata (`managedProjectIds`); an owner's access token is an admin token for those projects.

/** The project ids an internal user's server metadata lists as owned (anything malformed lists none). */
export function managedProjectIds(serverMetadata: unknown): string[] {
  const ids = (serverMetadata as { managedProjectIds?: unknown } | null)?.managedProjectIds;
  return Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : [];
}
