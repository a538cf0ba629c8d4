// Invitations to co-own a project (Gatehouse's own, issue 26): the pending ones an owner sees (the admin app), and
// what the invitee's console account reads before accepting (an internal user's owner methods, owned-projects.ts).
import type { OwnerInvitationDetailsJson, OwnerInvitationJson } from '../wire.ts';

/** A pending invitation of the project (GET /internal/owner-invitations). */
export interface OwnerInvitation {
  readonly id: string;
  readonly recipientEmail: string;
  readonly expiresAt: Date;
  /** Revokes it (the mailed code stops working). */
  revoke(): Promise<void>;
}

export type OwnerInvitationCreateOptions = {
  email: string;
  /** The console's accept page; the service adds the code to it (to its hash route's query when it has one). */
  callbackUrl: string;
};

/** What an invitation code is for, read by the signed-in invitee without using it up. */
export interface OwnerInvitationDetails {
  readonly projectId: string;
  readonly projectDisplayName: string;
  /** The address the invitation was mailed to (the accepting account may have another). */
  readonly recipientEmail: string;
}

export function ownerInvitationFromJson(json: OwnerInvitationJson, revoke: (id: string) => Promise<void>): OwnerInvitation {
  return Object.freeze({ id: json.id, recipientEmail: json.recipient_email, expiresAt: new Date(json.expires_at_millis), revoke: () => revoke(json.id) });
}

export function ownerInvitationDetailsFromJson(json: OwnerInvitationDetailsJson): OwnerInvitationDetails {
  return Object.freeze({ projectId: json.project_id, projectDisplayName: json.project_display_name, recipientEmail: json.recipient_email });
}
