// Where an owner invitation's mail leads: the accept page of the web console the service serves (/console), opened by
// the invitee in their browser whatever console the inviting owner used (the desktop app's pages are its own).
import { THIS_SERVICE_ID } from './web-connections';
import { routeHash } from './routes';

export function ownerInvitationCallbackUrl(serviceUrl: string): string {
  return `${serviceUrl.replace(/\/+$/, '')}/console/${routeHash({ name: 'owner-invitation', connectionId: THIS_SERVICE_ID, code: null })}`;
}
