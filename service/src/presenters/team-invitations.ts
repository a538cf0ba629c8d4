// A pending team invitation as GET /team-invitations shows it (protocol-resources §5).
import type { TeamInvitation } from '@gatehouse/shared/schemas/invitations';
import type { PendingInvitation } from '../repo/team-invitations';

export function invitationView(i: PendingInvitation): TeamInvitation {
  return { id: i.id, team_id: i.teamId, recipient_email: i.recipientEmail, expires_at_millis: i.expiresAt.getTime() };
}
