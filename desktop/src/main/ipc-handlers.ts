// The main side of the bridge: each channel validates what the renderer sends, calls only from the app's own
// page are answered, and admin keys never leave this process (they are added to requests here).
import { ADMIN_KEY_HEADER, CHANNELS, type BridgeRequest, type BridgeResponse, type SavedConnectionInput } from '../shared/bridge';
import type { ConnectionsStore } from './connections-store';
import { decideNavigation } from './navigation-policy';
import type { FetchLike, IpcEventLike, IpcMainLike, ShellLike } from './ports';
import { SecretNotWrittenError, type SecretStore } from './secret-store';
import type { SignInReturns } from './sign-in-returns';

export interface IpcDeps {
  ipcMain: IpcMainLike;
  connections: ConnectionsStore;
  secrets: SecretStore;
  shell: ShellLike;
  fetch: FetchLike;
  /** URL of the app's page (the only sender answered). */
  appUrl: () => string;
  /** The loopback listener owners' sign-ins come back to (sign-in-returns.ts). */
  signInReturns: Pick<SignInReturns, 'baseUrl'>;
}

export const secretKey = (connectionId: string) => `connection:${connectionId}`;

export class ForbiddenSenderError extends Error {
  constructor() {
    super('IPC call from a page that is not the console');
  }
}

/** Whether the request goes to the connection's service (and nowhere else). */
export function requestTargetAllowed(url: string, serviceUrl: string): boolean {
  try {
    const u = new URL(url);
    return u.origin === new URL(serviceUrl).origin && u.pathname.startsWith('/api/');
  } catch {
    return false;
  }
}

/** Builds the request the main process sends: the stored admin key replaces the renderer's empty header. */
export function withStoredSecret(request: BridgeRequest, kind: 'owner' | 'project', secret: string | null): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(request.headers ?? {})) if (typeof v === 'string') headers[k.toLowerCase()] = v;
  if (kind === 'project' && headers['x-stack-access-type'] === 'admin' && secret) headers[ADMIN_KEY_HEADER] = secret;
  else delete headers[ADMIN_KEY_HEADER];
  return headers;
}

export function registerIpcHandlers(deps: IpcDeps): void {
  const { ipcMain, connections, secrets } = deps;
  const handle = (channel: string, fn: (...args: any[]) => unknown) =>
    ipcMain.handle(channel, (event: IpcEventLike, ...args: any[]) => {
      if (!event.senderFrame || decideNavigation(event.senderFrame.url, deps.appUrl()) !== 'allow') throw new ForbiddenSenderError();
      return fn(...args);
    });

  handle(CHANNELS.listConnections, () => connections.list());
  handle(CHANNELS.saveConnection, (input: SavedConnectionInput) => connections.save(input));
  handle(CHANNELS.removeConnection, (id: string) => {
    connections.remove(String(id));
    secrets.set(secretKey(String(id)), null);
  });
  handle(CHANNELS.storeSecret, (id: string, secret: string | null) => {
    if (!connections.get(String(id))) throw new Error('Unknown connection');
    try {
      secrets.set(secretKey(String(id)), typeof secret === 'string' && secret ? secret : null);
      return { persisted: true };
    } catch (err) {
      // Refused to write it (no encryption, or a weak one not agreed to): it is kept for this session only.
      if (err instanceof SecretNotWrittenError) return { persisted: false };
      throw err;
    }
  });
  handle(CHANNELS.secretStorageStatus, () => secrets.status());
  handle(CHANNELS.allowWeakSecretStorage, () => secrets.allowWeakStorage());
  handle(CHANNELS.loadSessionToken, (id: string) => {
    const c = connections.get(String(id));
    // Only an owner's refresh token goes back to the renderer; a project's admin key stays here.
    return c?.kind === 'owner' ? secrets.get(secretKey(c.id)) : null;
  });
  handle(CHANNELS.request, async (request: BridgeRequest): Promise<BridgeResponse> => {
    const c = connections.get(String(request?.connectionId));
    if (!c) throw new Error('Unknown connection');
    if (!requestTargetAllowed(String(request.url), c.serviceUrl)) throw new Error('Requests go only to the connection\'s service API');
    const method = String(request.method ?? 'GET').toUpperCase();
    const res = await deps.fetch(request.url, {
      method,
      headers: withStoredSecret(request, c.kind, secrets.get(secretKey(c.id))),
      body: typeof request.body === 'string' ? request.body : undefined,
    });
    const headers: Record<string, string> = {};
    res.headers.forEach((value, key) => (headers[key] = value));
    return { status: res.status, headers, body: await res.text() };
  });
  handle(CHANNELS.openExternal, (url: string) => {
    if (decideNavigation(String(url), deps.appUrl()) !== 'external') throw new Error('Only web links open outside the console');
    return deps.shell.openExternal(String(url));
  });
  handle(CHANNELS.signInReturnBase, () => deps.signInReturns.baseUrl());
}
