// Validation of the connect forms (returns a message key or null).
import type { MessageKey } from '../messages';

export function serviceUrlProblem(value: string): MessageKey | null {
  try {
    const u = new URL(value.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? null : 'connect.serviceUrlInvalid';
  } catch {
    return 'connect.serviceUrlInvalid';
  }
}

export const requiredProblem = (value: string): MessageKey | null => (value.trim() ? null : 'common.required');

/** Label of a saved connection: the service's host, and the project for an admin-key connection. */
export function connectionLabel(serviceUrl: string, projectId?: string): string {
  const host = new URL(serviceUrl).host;
  return projectId ? `${projectId} @ ${host}` : host;
}

/**
 * The header's context inside a project: the service, and the project by its name (by its id until the name has
 * loaded). An admin-key connection's label names the project by id already: that part gives way to the name.
 */
export function projectContext(connectionLabel: string, projectId: string, projectName?: string | null): string {
  const service = connectionLabel.startsWith(`${projectId} @ `) ? connectionLabel.slice(projectId.length + 3) : connectionLabel;
  return `${service} · ${projectName || projectId}`;
}
