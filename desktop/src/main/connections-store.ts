// The saved list of services and projects (no secrets in it: those live in the secret store).
import type { SavedConnection, SavedConnectionInput } from '../shared/bridge';
import type { FilesLike } from './ports';

export const CONNECTIONS_FILE = 'connections.json';

/** The service origin of a URL the user typed, or null when it is not an http(s) URL. */
export function serviceOrigin(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

function isConnection(c: any): c is SavedConnection {
  return c && typeof c.id === 'string' && typeof c.serviceUrl === 'string' && (c.kind === 'owner' || c.kind === 'project') && typeof c.label === 'string';
}

export function createConnectionsStore(files: FilesLike, newId: () => string) {
  const read = (): SavedConnection[] => {
    const raw = files.read(CONNECTIONS_FILE);
    if (!raw) return [];
    try {
      const parsed = JSON.parse(new TextDecoder().decode(raw));
      return Array.isArray(parsed) ? parsed.filter(isConnection) : [];
    } catch {
      return [];
    }
  };
  const write = (list: SavedConnection[]) => files.write(CONNECTIONS_FILE, JSON.stringify(list, null, 2));
  return {
    list: read,
    get: (id: string) => read().find((c) => c.id === id) ?? null,
    save(input: SavedConnectionInput): SavedConnection {
      const origin = serviceOrigin(input.serviceUrl);
      if (!origin) throw new Error(`Not a service URL: ${input.serviceUrl}`);
      if (input.kind === 'project' && !input.projectId) throw new Error('A project connection needs a project id');
      const saved: SavedConnection = {
        id: input.id ?? newId(),
        serviceUrl: origin,
        kind: input.kind,
        label: String(input.label ?? '').slice(0, 200),
        ...(input.projectId ? { projectId: String(input.projectId) } : {}),
        ...(input.publishableClientKey ? { publishableClientKey: String(input.publishableClientKey) } : {}),
      };
      const list = read().filter((c) => c.id !== saved.id);
      write([...list, saved]);
      return saved;
    },
    remove(id: string) {
      write(read().filter((c) => c.id !== id));
    },
  };
}
export type ConnectionsStore = ReturnType<typeof createConnectionsStore>;
