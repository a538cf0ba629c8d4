// A project's owner, and a pending invitation to become one, as the admin API shows them.
import type { OwnerInvitation, ProjectOwner } from '@gatehouse/shared/schemas/project-owners';
import type { PendingOwnerInvitation } from '../repo/owner-invitations';
import type { OwnerRow } from '../repo/project-owners';

export function projectOwnerView(row: OwnerRow): ProjectOwner {
  return { user_id: row.id, display_name: row.display_name, primary_email: row.primary_email, signed_up_at_millis: new Date(row.created_at).getTime() };
}

export function ownerInvitationView(i: PendingOwnerInvitation): OwnerInvitation {
  return { id: i.id, recipient_email: i.recipientEmail, expires_at_millis: i.expiresAt.getTime() };
}
