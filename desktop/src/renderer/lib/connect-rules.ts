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

/** The header's context inside a project: the connection, and the project unless the connection names it already. */
export function projectContext(connectionLabel: string, projectId: string): string {
  return connectionLabel.startsWith(`${projectId} @ `) ? connectionLabel : `${connectionLabel} · ${projectId}`;
}
