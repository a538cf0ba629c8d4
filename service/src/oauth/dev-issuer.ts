// Development only: the local OpenID provider that `npm start` runs so that every provider button works with no
// keys. It stands in for each provider that has no credentials (a shared provider without operator keys).
import { createServer } from 'node:net';
import type { Services } from '../services';
import { devProviderClients, startDevOidcProvider, type DevOidcProvider } from './dev-provider';

let running: { provider: DevOidcProvider; registeredFor: string } | null = null;

/**
 * The development issuer, or null when none runs. Its clients are (re)registered for `apiBase`: with PORT=0 the
 * service learns its public URL only after the provider has started.
 */
export function devIssuer(apiBase: string): string | null {
  if (!running) return null;
  if (running.registeredFor !== apiBase) {
    devProviderClients(apiBase).forEach(running.provider.addClient);
    running.registeredFor = apiBase;
  }
  return running.provider.issuer;
}

/** The development provider's issuer URL while it runs (null otherwise), without registering anything. */
export function runningDevIssuer(): string | null {
  return running?.provider.issuer ?? null;
}

/** Starts the development provider when configured (GATEHOUSE_DEV_OIDC, no issuer overrides in the environment). */
export async function startDevIssuer(services: Services): Promise<void> {
  const { config } = services;
  if (!config.devOidc || Object.keys(config.oauth.issuerOverrides).length > 0) return;
  // Bound to the service's own interface: HOST=127.0.0.1 keeps the provider local too.
  const host = config.hostname;
  const preferred = config.port > 0 && config.port < 65535 ? config.port + 1 : 0;
  const port = preferred && (await isFree(preferred, host)) ? preferred : 0;
  const provider = await startDevOidcProvider({ port, host, clients: devProviderClients(config.publicUrl) });
  running = { provider, registeredFor: config.publicUrl };
  console.log(`Development OpenID provider on ${provider.issuer} (signs in every OAuth provider without keys)`);
  services.onStop.push(async () => {
    running = null;
    await provider.close();
  });
}

function isFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}
