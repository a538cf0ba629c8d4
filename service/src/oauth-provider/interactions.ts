// The account kit's consent page answers an authorization request of the project's OpenID provider for the user
// signed in there (issue 27): Gatehouse's session, with its MFA and rate limits, decides who that is; the provider
// never shows a login form of its own. Allowing makes the provider's grant (the scopes asked for) and remembers the
// consent for this user and client; denying ends the request with `access_denied`. Either way the answer is where
// the browser goes next: back to the provider, which finishes the request and redirects to the application.
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as store from '../repo/oauth-provider';
import { projectProvider, type Provider } from './providers';

export interface InteractionView {
  interactionId: string;
  client: store.ProviderClientRow;
  scopes: string[];
  consentRemembered: boolean;
}

interface Input { projectId: string; userId: string; interactionId: string }

type Interaction = InstanceType<Provider['Interaction']>;

async function pending(services: Services, input: Input): Promise<{ provider: Provider; interaction: Interaction; client: store.ProviderClientRow; scopes: string[] }> {
  const notFound = () => new KnownErrors.OAuthProviderInteractionNotFound();
  const provider = await projectProvider(services, input.projectId);
  if (!provider) throw notFound();
  const interaction = await provider.Interaction.find(input.interactionId);
  // An answered request keeps its record until the provider resumes it: it cannot be answered twice.
  if (!interaction || interaction.result) throw notFound();
  const clientId = String(interaction.params.client_id ?? '');
  const client = clientId ? await store.findClient(services.db, input.projectId, clientId) : null;
  if (!client) throw notFound();
  const asked = String(interaction.params.scope ?? '').split(' ').filter(Boolean);
  return { provider, interaction, client, scopes: [...new Set(asked)] };
}

export async function showInteraction(services: Services, input: Input): Promise<InteractionView> {
  const { client, scopes } = await pending(services, input);
  const consent = await store.findConsent(services.db, input.projectId, input.userId, client.clientId);
  return { interactionId: input.interactionId, client, scopes, consentRemembered: !!consent && scopes.every((s) => consent.scopes.includes(s)) };
}

/** The URL the browser goes to next. */
export async function answerInteraction(services: Services, input: Input & { allow: boolean }): Promise<string> {
  const { provider, interaction, client, scopes } = await pending(services, input);
  if (!input.allow) {
    interaction.result = { error: 'access_denied', error_description: 'The user denied the request.' };
  } else {
    const grant = new provider.Grant({ accountId: input.userId, clientId: client.clientId });
    grant.addOIDCScope(scopes.join(' '));
    const grantId = await grant.save();
    const consent = await store.findConsent(services.db, input.projectId, input.userId, client.clientId);
    await store.saveConsent(services.db, {
      projectId: input.projectId, userId: input.userId, clientId: client.clientId, scopes: [...new Set([...(consent?.scopes ?? []), ...scopes])],
    });
    interaction.result = { login: { accountId: input.userId }, consent: { grantId } };
  }
  await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
  return interaction.returnTo;
}
