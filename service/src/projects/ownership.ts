// Who owns a project (protocol-resources §10): the internal project's users list the projects they own in their
// server metadata (`managedProjectIds`); an owner's access token is an admin token for those projects.
import { DEMO_PROJECT_ID } from '../dev-keys';

/** The project ids an internal user's server metadata lists as owned (anything malformed lists none). */
export function managedProjectIds(serverMetadata: unknown): string[] {
  const ids = (serverMetadata as { managedProjectIds?: unknown } | null)?.managedProjectIds;
  return Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * The projects an internal user administers: those their metadata lists and, in development, the demo project
 * (demo-project.ts), which every owner sees in the console to try its settings (issue 25). Never in production.
 */
export function administeredProjectIds(serverMetadata: unknown, o: { demoProject: boolean }): string[] {
  const listed = managedProjectIds(serverMetadata);
  return !o.demoProject || listed.includes(DEMO_PROJECT_ID) ? listed : [...listed, DEMO_PROJECT_ID];
}
