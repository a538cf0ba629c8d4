// The open project's lists the client library does not cache (they change as the service works: mail is sent,
// sessions are used), read once per screen visit with useLoader: its state, and reload.
import type { ActiveSession, AdminSentEmail, AdminSentEmailDetail, ConnectedApp, OAuthProviderClientActivity } from '@gatehouse/shared/client';
import { useLoader, type Loaded } from './use-loader';
import { useProjectContext } from './use-project-context';

/** GET /internal/emails: the project's sent mail. */
export function useSentEmails(): Loaded<AdminSentEmail[]> & { reload(): void } {
  const { app } = useProjectContext();
  return useLoader(() => app.listSentEmails(), [app]);
}

/** GET /internal/emails/{id}: one sent email with its recorded (redacted) bodies. */
export function useSentEmail(id: string): Loaded<AdminSentEmailDetail> & { reload(): void } {
  const { app } = useProjectContext();
  return useLoader(() => app.getSentEmail(id), [app, id]);
}

/** A user's active sessions as the admin API lists them: impersonation sessions included (the server view hides them). */
export function useUserSessions(userId: string): Loaded<ActiveSession[]> & { reload(): void } {
  const { app } = useProjectContext();
  return useLoader(() => app.listUserSessions(userId), [app, userId]);
}

/** GET /oauth-provider/clients/{id}/activity: an OAuth client's consents and token activity (read again when `version` changes). */
export function useOAuthClientActivity(clientId: string, version: number): Loaded<OAuthProviderClientActivity> & { reload(): void } {
  const { app } = useProjectContext();
  return useLoader(() => app.getOAuthProviderClientActivity(clientId), [app, clientId, version]);
}

/** GET /oauth-provider/consents?user_id=: the OAuth apps a user let sign them in (they change as the user consents). */
export function useUserConsents(userId: string): Loaded<ConnectedApp[]> & { reload(): void } {
  const { app } = useProjectContext();
  return useLoader(() => app.listOAuthProviderConsents(userId), [app, userId]);
}
