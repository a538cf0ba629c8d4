// Background workers started with the service: the email outbox (and, as they land, webhook deliveries and
// the development OpenID provider). Each registers its stop hook.
import { resealStoredSecrets } from './security/reseal';
import type { Services } from './services';
import { startEmailWorker } from './email/outbox';
import { NO_SHARED_SMTP_MESSAGE } from './email/transport';
import { startHousekeeping } from './housekeeping';
import { startDevIssuer } from './oauth/dev-issuer';
import { startWebhookWorker } from './webhooks/worker';
import { SIGNING_KEY_TICK_MS, maintainSigningKeys } from './tokens/signing-key-rotation';
import { recheckVerifiedDomains } from './domains/team-domains';
import { SSO_REQUIRED_REFRESH_MS, refreshSsoRequiredDomains } from './sso/required-domains';

/** Between passes of the verified domains' re-check (each pass checks those not checked for GATEHOUSE_DOMAIN_RECHECK_HOURS). */
const DOMAIN_RECHECK_TICK_MS = 15 * 60_000;

export async function startBackgroundWork(services: Services): Promise<void> {
  const { config } = services;
  if (config.isProduction && !config.smtpUrl) {
    console.warn(`[email] warning: SMTP_URL is not set. Mail of projects using the shared email config will not be sent: each attempt fails with "${NO_SHARED_SMTP_MESSAGE}" (see the sent-email list). Set SMTP_URL, e.g. smtp://user:pass@mail.example.com:587.`);
  }
  const shared = { smtpUrl: config.smtpUrl, smtpSender: config.smtpSender, consoleFallback: !config.isProduction };
  const email = startEmailWorker(services.db, {
    shared, outbound: config.outbound, ...config.emailRetry, bodySecret: services.secret, wakers: services.emailWorkers,
  });
  services.onStop.push(() => email.stop());
  const webhookWorker = startWebhookWorker(services.db, services.secret, services.webhookWorkers, { ...config.webhooks, outbound: config.outbound });
  services.onStop.push(() => webhookWorker.stop());
  const housekeeping = startHousekeeping(services.db, { intervalMs: config.housekeepingIntervalMs, rateLimits: config.rateLimits });
  services.onStop.push(() => housekeeping.stop());
  await startDevIssuer(services);
  // Signing keys (tokens/signing-key-rotation.ts): every instance reads them again (a missed notification costs at
  // most a tick), retires previous keys whose tokens have all expired and rotates when the period has passed.
  const keyTick = setInterval(() => {
    maintainSigningKeys(services).then(
      (r) => { if (r.rotated || r.retired.length) console.log(`[keys] ${r.rotated ? `rotated automatically (GATEHOUSE_SIGNING_KEY_ROTATION_DAYS=${config.signingKeyRotationDays}); ` : ''}${r.retired.length} previous key(s) retired`); },
      (err) => console.error('[keys] the signing key pass failed; it runs again at the next tick:', err),
    );
  }, SIGNING_KEY_TICK_MS);
  services.onStop.push(() => clearInterval(keyTick));
  // Verified team domains (issue 28): a TXT record that is gone ends the verification; a failed lookup changes nothing.
  const domainTick = setInterval(() => {
    recheckVerifiedDomains(services).then(
      (r) => { if (r.unverified) console.log(`[domains] ${r.unverified} of ${r.checked} re-checked domain(s) lost their verification (TXT record gone)`); },
      (err) => console.error('[domains] the re-check pass failed; it runs again at the next tick:', err),
    );
  }, DOMAIN_RECHECK_TICK_MS);
  services.onStop.push(() => clearInterval(domainTick));
  // Domains that require SSO (sso/required-domains.ts), for the sign-in paths to check without a read.
  await refreshSsoRequiredDomains(services.db).catch((err) => console.error('[sso] could not read the domains that require SSO:', err));
  const ssoTick = setInterval(() => {
    refreshSsoRequiredDomains(services.db).catch((err) => console.error('[sso] could not read the domains that require SSO; trying again:', err));
  }, SSO_REQUIRED_REFRESH_MS);
  services.onStop.push(() => clearInterval(ssoTick));
  if (config.serverSecretPrevious.length > 0) {
    // A rotation of the server secret is under way: stored secrets move to the new one (security/reseal.ts).
    resealStoredSecrets(services).then(
      (n) => console.log(`[secrets] re-sealed under the current GATEHOUSE_SERVER_SECRET: ${n.projectConfigs} project configs, ${n.totpSecrets} TOTP secrets, ${n.providerTokens} provider tokens, ${n.webhookSecrets} webhook secrets, ${n.signingKeys} signing keys, ${n.oauthProviderKeys} OpenID provider keys; GATEHOUSE_SERVER_SECRET_PREVIOUS may be removed at the next restart`),
      (err) => console.error('[secrets] the re-seal pass failed; it runs again at the next start:', err),
    );
  }
}
