// Background workers (email outbox, webhook deliveries, dev OpenID provider) started with the service.
import type { Services } from './services';

export async function startBackgroundWork(services: Services): Promise<void> {
  void services;
}
