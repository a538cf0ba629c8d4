// Contact channels (protocol-resources §9) and the email-verification requests (protocol-auth §3.3).
import { Type, type Static } from '@sinclair/typebox';
import { Code45, Email, SignInEmail, Strict, Url, Uuid, List } from './common.ts';

/** A user id (UUID) or `me`; anything else is a SCHEMA_ERROR ("must be a valid UUID"). */
export const ChannelUserId = () => Type.Union([Uuid(), Type.Literal('me')]);
const ChannelType = () => Type.Literal('email');

/** Same shape for every access type (source order). */
export const ContactChannel = Strict({
  user_id: Uuid(),
  id: Uuid(),
  value: Type.String(),
  type: ChannelType(),
  used_for_auth: Type.Boolean(),
  is_verified: Type.Boolean(),
  is_primary: Type.Boolean(),
});
export const ContactChannelList = List(ContactChannel);
export type ContactChannel = Static<typeof ContactChannel>;

const createFields = {
  user_id: ChannelUserId(),
  value: Email(),
  type: ChannelType(),
  used_for_auth: Type.Boolean(),
  is_primary: Type.Optional(Type.Boolean()),
};
export const ClientContactChannelCreate = Strict(createFields);
export const ServerContactChannelCreate = Strict({ ...createFields, is_verified: Type.Optional(Type.Boolean()) });
export type ServerContactChannelCreate = Static<typeof ServerContactChannelCreate>;

const updateFields = {
  value: Type.Optional(Email()),
  type: Type.Optional(ChannelType()),
  used_for_auth: Type.Optional(Type.Boolean()),
  is_primary: Type.Optional(Type.Boolean()),
};
export const ClientContactChannelUpdate = Strict(updateFields);
export const ServerContactChannelUpdate = Strict({ ...updateFields, is_verified: Type.Optional(Type.Boolean()) });
export type ServerContactChannelUpdate = Static<typeof ServerContactChannelUpdate>;

export const ContactChannelParams = Strict({ user_id: ChannelUserId(), contact_channel_id: Uuid() });
export const ContactChannelListQuery = Strict({
  user_id: Type.Optional(ChannelUserId()),
  contact_channel_id: Type.Optional(Uuid()),
});

export const SendVerificationCodeBody = Strict({ callback_url: Url() });
export const LegacySendVerificationCodeBody = Strict({ email: SignInEmail(), callback_url: Url() });
export const CodeBody = Strict({ code: Code45() });
export const IsCodeValid = Strict({ is_code_valid: Type.Literal(true) });
