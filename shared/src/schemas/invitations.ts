// Team invitations (protocol-resources §5): verification codes of type team_invitation.
import { Type, type Static } from '@sinclair/typebox';
import { Code45, Email, Millis, Strict, Url, Uuid, List } from './common.ts';

export const TeamInvitation = Strict({
  id: Uuid(),
  team_id: Uuid(),
  recipient_email: Type.String(),
  expires_at_millis: Millis(),
});
export const TeamInvitationList = List(TeamInvitation);
export type TeamInvitation = Static<typeof TeamInvitation>;

export const TeamInvitationSendCode = Strict({ team_id: Uuid(), email: Email(), callback_url: Url() });
export const TeamInvitationSendCodeResponse = Strict({ success: Type.Literal(true), id: Uuid() });
export const TeamInvitationListQuery = Strict({ team_id: Uuid() });
export const TeamInvitationParams = Strict({ id: Uuid() });
export const TeamInvitationCode = Strict({ code: Code45() });
export const TeamInvitationCheckCodeResponse = Strict({ is_code_valid: Type.Literal(true) });
export const TeamInvitationDetails = Strict({ team_id: Uuid(), team_display_name: Type.String() });
