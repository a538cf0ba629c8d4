// The web build's saved list (localStorage): services and projects, never a key or token.
import type { SavedConnection, SavedConnectionInput } from '../../shared/bridge';
import type { ConsoleConfig } from './console-config';

export const WEB_CONNECTIONS_KEY = 'gatehouse-console:connections';
export const THIS_SERVICE_ID = 'this-service';

/** The service serving the page, always listed first (an owner signs in there). */
export function thisServiceConnection(origin: string, config: ConsoleConfig): SavedConnection {
  return {
    id: THIS_SERVICE_ID,
    serviceUrl: origin,
    kind: 'owner',
    label: new URL(origin).host,
    ...(config.publishableClientKey ? { publishableClientKey: config.publishableClientKey } : {}),
  };
}

/** Only the non-secret fields survive; anything else in storage (or in the input) is dropped. */
function sanitize(c: any): SavedConnection | null {
  if (!c || typeof c.id !== 'string' || typeof c.serviceUrl !== 'string' || (c.kind !== 'owner' && c.kind !== 'project')) return null;
  return {
    id: c.id,
    serviceUrl: c.serviceUrl,
    kind: c.kind,
    label: typeof c.label === 'string' ? c.label : c.serviceUrl,
    ...(typeof c.projectId === 'string' ? { projectId: c.projectId } : {}),
    ...(typeof c.publishableClientKey === 'string' ? { publishableClientKey: c.publishableClientKey } : {}),
  };
}

export function readWebConnections(raw: string | null): SavedConnection[] {
  if (!raw) return [];
  try {
    const parsed = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.map(sanitize).filter((c): c is SavedConnection => c !== null && c.id !== THIS_SERVICE_ID) : [];
  } catch {
    return [];
  }
}

export function addWebConnection(list: SavedConnection[], input: SavedConnectionInput, newId: () => string): { list: SavedConnection[]; saved: SavedConnection } {
  // The same project on the same service is one entry.
  const existing = list.find((c) => c.kind === input.kind && c.serviceUrl === input.serviceUrl && c.projectId === input.projectId);
  const saved = sanitize({ ...input, id: input.id ?? existing?.id ?? newId() })!;
  return { list: [...list.filter((c) => c.id !== saved.id), saved], saved };
}

export function removeWebConnection(list: SavedConnection[], id: string): SavedConnection[] {
  return list.filter((c) => c.id !== id);
}
