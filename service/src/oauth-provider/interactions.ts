// The account kit's consent page answers an authorization request of the project's OpenID provider for the user
// signed in there (issue 27): Gatehouse's session, with its MFA and rate limits, decides who that is; the provider
// never shows a login form of its own.
//
// The answer is bound to the browser that made the request. The page's call (with the user's token) only records
// the decision, under a one-time ticket it answers; the browser then brings the ticket to `{resume URL}/finish`
// (`{issuer}/auth/{id}/finish`, or `/device/{id}/finish` for a device's request), where the provider's signed resume
// cookie must name the same request
// (http/oidc-mount.ts). A request started in one browser therefore cannot be approved by a person signed in in
// another (a link to someone else's consent page gives its sender nothing). Finishing makes the provider's grant
// (the scopes asked for), remembers the consent for this user and client, and sends the browser back to the provider,
// which redirects to the application; a denial ends the request with `access_denied`.
import { randomBytes } from 'node:crypto';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as store from '../repo/oauth-provider';
import { constantTimeEqual, hashSecret } from '../db/secret-hash';
import { projectProvider, type Provider } from './providers';

export interface InteractionView {
  interactionId: string;
  client: store.ProviderClientRow;
  scopes: string[];
  /** The project's description of each project scope asked for (the consent page shows it). */
  scopeDescriptions: Record<string, string>;
  consentRemembered: boolean;
}

interface Input { projectId: string; userId: string; interactionId: string }

type Interaction = InstanceType<Provider['Interaction']>;
const DECISION = 'ConsentDecision';

async function pending(services: Services, projectId: string, interactionId: string): Promise<{ provider: Provider; interaction: Interaction; client: store.ProviderClientRow; scopes: string[] }> {
  const notFound = () => new KnownErrors.OAuthProviderInteractionNotFound();
  const provider = await projectProvider(services, projectId);
  if (!provider) throw notFound();
  const interaction = await provider.Interaction.find(interactionId);
  // An answered request keeps its record until the provider resumes it: it cannot be answered twice.
  if (!interaction || interaction.result) throw notFound();
  const clientId = String(interaction.params.client_id ?? '');
  const client = clientId ? await store.findClient(services.db, projectId, clientId) : null;
  if (!client) throw notFound();
  const asked = String(interaction.params.scope ?? '').split(' ').filter(Boolean);
  return { provider, interaction, client, scopes: [...new Set(asked)] };
}

export async function showInteraction(services: Services, input: Input): Promise<InteractionView> {
  const { client, scopes } = await pending(services, input.projectId, input.interactionId);
  const consent = await store.findConsent(services.db, input.projectId, input.userId, client.clientId);
  const projectScopes = (await store.findSettings(services.db, input.projectId))?.scopes ?? [];
  const scopeDescriptions = Object.fromEntries(projectScopes.filter((s) => scopes.includes(s.name)).map((s) => [s.name, s.description]));
  return {
    interactionId: input.interactionId, client, scopes, scopeDescriptions,
    consentRemembered: !!consent && scopes.every((s) => consent.scopes.includes(s)),
  };
}

/** Records the user's answer; answers the URL where the browser that made the request finishes it. */
export async function answerInteraction(services: Services, input: Input & { allow: boolean }): Promise<string> {
  const { interaction, client } = await pending(services, input.projectId, input.interactionId);
  const ticket = randomBytes(32).toString('base64url');
  await store.upsertRecord(services.db, {
    projectId: input.projectId, model: DECISION, id: input.interactionId, uid: null, grantId: null, accountId: input.userId,
    clientId: client.clientId, payload: { allow: input.allow, userId: input.userId, ticketHash: hashSecret(ticket) },
    expiresAt: new Date(interaction.exp * 1000),
  });
  // Under the resume URL, so the browser sends the provider's resume cookie with it.
  return `${interaction.returnTo}/finish?ticket=${ticket}`;
}

/**
 * Applies a recorded answer, for the browser whose resume cookie names this request (the caller checked it); answers
 * where that browser goes next. The ticket is taken once.
 */
export async function finishInteraction(services: Services, input: { projectId: string; interactionId: string; ticket: string }): Promise<string> {
  const { provider, interaction, client, scopes } = await pending(services, input.projectId, input.interactionId);
  const decision = await store.takeRecord(services.db, input.projectId, DECISION, input.interactionId);
  const ticketHash = typeof decision?.ticketHash === 'string' ? decision.ticketHash : '';
  if (!decision || typeof decision.userId !== 'string' || !constantTimeEqual(ticketHash, hashSecret(input.ticket))) {
    throw new KnownErrors.OAuthProviderInteractionNotFound();
  }
  const userId = decision.userId;
  if (decision.allow !== true) {
    interaction.result = { error: 'access_denied', error_description: 'The user denied the request.' };
  } else {
    const grant = new provider.Grant({ accountId: userId, clientId: client.clientId });
    grant.addOIDCScope(scopes.join(' '));
    // The protected resources asked for (RFC 8707; the provider checked each is the project's): tokens for them.
    for (const resource of [interaction.params.resource ?? []].flat()) grant.addResourceScope(String(resource), '');
    const grantId = await grant.save();
    const consent = await store.findConsent(services.db, input.projectId, userId, client.clientId);
    await store.saveConsent(services.db, {
      projectId: input.projectId, userId, clientId: client.clientId, scopes: [...new Set([...(consent?.scopes ?? []), ...scopes])],
    });
    interaction.result = { login: { accountId: userId }, consent: { grantId } };
  }
  await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
  return interaction.returnTo;
}
