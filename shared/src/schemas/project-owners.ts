// A project's owners (Gatehouse's admin API): the internal project's users whose server metadata lists the project in
// `managedProjectIds`, the protocol's model of ownership (protocol-resources §10.5).
import { Type, type Static } from '@sinclair/typebox';
import { Code45, Email, List, Millis, Nullable, Strict, Url, Uuid } from './common.ts';

export const ProjectOwner = Strict({
  user_id: Uuid(),
  display_name: Nullable(Type.String()),
  primary_email: Nullable(Type.String()),
  signed_up_at_millis: Millis(),
});
export type ProjectOwner = Static<typeof ProjectOwner>;
export const ProjectOwnerList = List(ProjectOwner);
export const ProjectOwnerParams = Strict({ user_id: Uuid() });

/**
 * An invitation to co-own the project, mailed as a link to the console's accept page. The code lives in the internal
 * project (the invitee is, or becomes, one of its users) and carries the project's id.
 */
export const OwnerInvitation = Strict({
  id: Uuid(),
  recipient_email: Type.String(),
  expires_at_millis: Millis(),
});
export type OwnerInvitation = Static<typeof OwnerInvitation>;
export const OwnerInvitationList = List(OwnerInvitation);
/** `callback_url`: the console's accept page; the code is added to it (to its hash route's query when it has one). */
export const OwnerInvitationCreate = Strict({ email: Email(), callback_url: Url() });
export const OwnerInvitationParams = Strict({ id: Uuid() });
export const OwnerInvitationCode = Strict({ code: Code45() });
/** What the accept page shows before the invitee accepts. */
export const OwnerInvitationDetails = Strict({ project_id: Type.String(), project_display_name: Type.String(), recipient_email: Type.String() });
/** `already_owner`: the account owned the project before (the invitation is used all the same; nothing changed). */
export const OwnerInvitationAccepted = Strict({ project_id: Type.String(), already_owner: Type.Boolean() });
