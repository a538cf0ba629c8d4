// After a rotation of the server secret (GATEHOUSE_SERVER_SECRET set to the new one, the old one in
// GATEHOUSE_SERVER_SECRET_PREVIOUS), every stored secret is written again under the new one, so that the previous
// secret can be dropped at the next restart without losing anything. Runs once in the background at start-up while
// previous secrets are configured; idempotent, so every instance may run it. Short-lived values (queued mail, CLI
// log-in tokens) are not rewritten: they expire within a day.
import type { Services } from '../services';
import { resealConfigSecrets } from '../repo/projects';
import { reencryptProviderTokens, reencryptWebhookSecrets, resealTotpSecrets } from '../repo/reseal';
import { decryptString, encryptString, encryptedUnder } from '../tokens/encryption';
import { providerTokenPurpose } from '../oauth/provider-tokens';
import { WEBHOOK_SECRET_PURPOSE } from '../webhooks/worker';
import { resealSeeds } from '../repo/signing-keys';
import { resealKeys as resealOAuthProviderKeys } from '../repo/oauth-provider';

export interface ResealCounts { projectConfigs: number; totpSecrets: number; providerTokens: number; webhookSecrets: number; signingKeys: number; oauthProviderKeys: number }

export async function resealStoredSecrets(services: Services): Promise<ResealCounts> {
  const { db, secret } = services;
  const again = (purpose: string, value: string) => (encryptedUnder(secret, purpose, value) ? null : encryptString(secret, purpose, decryptString(secret, purpose, value)));
  return {
    projectConfigs: await resealConfigSecrets(db),
    totpSecrets: await resealTotpSecrets(db),
    providerTokens: await reencryptProviderTokens(db, (row) => again(providerTokenPurpose(row.projectId), row.value)),
    webhookSecrets: await reencryptWebhookSecrets(db, (row) => again(WEBHOOK_SECRET_PURPOSE, row.value)),
    signingKeys: await resealSeeds(db),
    oauthProviderKeys: await resealOAuthProviderKeys(db),
  };
}
