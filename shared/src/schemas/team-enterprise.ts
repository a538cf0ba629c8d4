// Teams as customer organizations (issue 28), on the server and admin API: verified email domains
// (/teams/{team_id}/domains), SCIM bearer tokens (/teams/{team_id}/scim-tokens; `token` only in the create answer)
// and the groups SCIM pushed, with the team permissions each grants (/teams/{team_id}/scim-groups).
import { Type, type Static } from '@sinclair/typebox';
import { DescriptionText, Millis, Nullable, Strict, Uuid } from './common.ts';

export const TeamIdParams = Strict({ team_id: Uuid() });

// ---- Verified domains
export const TeamDomainStatus = Type.Union([Type.Literal('pending'), Type.Literal('verified')]);
export const TeamDomain = Strict({
  id: Uuid(),
  team_id: Uuid(),
  domain: Type.String(),
  status: TeamDomainStatus,
  /** The DNS TXT record that proves the team controls the domain. */
  txt_record: Strict({ name: Type.String(), value: Type.String() }),
  verified_at_millis: Nullable(Millis()),
  last_checked_at_millis: Nullable(Millis()),
  /** Why the last check did not find the record; null when it did, or before any check. */
  last_check_problem: Nullable(Type.String()),
  created_at_millis: Millis(),
});
export type TeamDomain = Static<typeof TeamDomain>;
export const TeamDomainCreate = Strict({ domain: Type.String({ minLength: 1, maxLength: 253, description: 'An email domain, e.g. example.com' }) });
export const TeamDomainParams = Strict({ team_id: Uuid(), domain_id: Uuid() });

// ---- SCIM tokens
export const ScimToken = Strict({
  id: Uuid(),
  team_id: Uuid(),
  description: Type.String(),
  created_at_millis: Millis(),
  last_used_at_millis: Nullable(Millis()),
});
export type ScimToken = Static<typeof ScimToken>;
/** The create answer: the token's value, shown once, and the team's SCIM base URL. */
export const ScimTokenFirstView = Strict({
  id: Uuid(),
  team_id: Uuid(),
  description: Type.String(),
  created_at_millis: Millis(),
  last_used_at_millis: Nullable(Millis()),
  token: Type.String(),
  scim_base_url: Type.String(),
});
export const ScimTokenCreate = Strict({ description: Type.Optional(DescriptionText()) });
export const ScimTokenParams = Strict({ team_id: Uuid(), token_id: Uuid() });

// ---- SCIM groups and their permissions
export const ScimGroup = Strict({
  id: Uuid(),
  team_id: Uuid(),
  display_name: Type.String(),
  external_id: Nullable(Type.String()),
  member_count: Type.Number(),
  /** Team permissions every member of the group is granted (set by the owner; the identity provider cannot). */
  permission_ids: Type.Array(Type.String()),
  created_at_millis: Millis(),
});
export type ScimGroup = Static<typeof ScimGroup>;
export const ScimGroupUpdate = Strict({ permission_ids: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 }) });
export const ScimGroupParams = Strict({ team_id: Uuid(), group_id: Uuid() });
