// Background workers started with the service: the email outbox (and, as they land, webhook deliveries and
// the development OpenID provider). Each registers its stop hook.
import type { Services } from './services';
import { startEmailWorker } from './email/outbox';
import { housekeepingOptionsFromEnv, startHousekeeping } from './housekeeping';
import { startDevIssuer } from './oauth/dev-issuer';
import { installWebhookEmitter, startWebhookWorker, webhookOptionsFromEnv } from './webhooks/worker';

export async function startBackgroundWork(services: Services): Promise<void> {
  const { config } = services;
  const email = startEmailWorker(services.db, { shared: { smtpUrl: config.smtpUrl, smtpSender: config.smtpSender } });
  services.onStop.push(() => email.stop());
  installWebhookEmitter();
  const webhookWorker = startWebhookWorker(services.db, services.secret, webhookOptionsFromEnv());
  services.onStop.push(() => webhookWorker.stop());
  const housekeeping = startHousekeeping(services.db, { ...housekeepingOptionsFromEnv(), rateLimits: config.rateLimits });
  services.onStop.push(() => housekeeping.stop());
  await startDevIssuer(services);
}
