// Permission definitions and grants, team- and project-scoped (protocol-resources §6–§8). Permission ids are
// plain strings here: their syntax rules (`permissionIdProblems` in rules/permissions) word errors as the
// reference does, without the path prefix, so routes check them.
import { Type, type Static } from '@sinclair/typebox';
import { DescriptionText, NameText, Strict, UserIdOrMe, Uuid, List } from './common.ts';

export const PermissionDefinition = Strict({
  id: Type.String(),
  description: Type.Optional(Type.String()),
  contained_permission_ids: Type.Array(Type.String()),
});
export const PermissionDefinitionList = List(PermissionDefinition);
export type PermissionDefinition = Static<typeof PermissionDefinition>;

export const PermissionDefinitionCreate = Strict({
  id: NameText(),
  description: Type.Optional(DescriptionText()),
  contained_permission_ids: Type.Optional(Type.Array(NameText())),
});
export type PermissionDefinitionCreate = Static<typeof PermissionDefinitionCreate>;
export const PermissionDefinitionUpdate = Strict({
  id: Type.Optional(NameText()),
  description: Type.Optional(DescriptionText()),
  contained_permission_ids: Type.Optional(Type.Array(NameText())),
});
export type PermissionDefinitionUpdate = Static<typeof PermissionDefinitionUpdate>;
export const PermissionDefinitionParams = Strict({ permission_id: Type.String() });

const Recursive = () => Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')]));

export const TeamPermission = Strict({ id: Type.String(), team_id: Uuid(), user_id: Uuid() });
export const TeamPermissionList = List(TeamPermission);
export type TeamPermission = Static<typeof TeamPermission>;
export const TeamPermissionListQuery = Strict({
  team_id: Type.Optional(Uuid()),
  user_id: Type.Optional(UserIdOrMe()),
  permission_id: Type.Optional(Type.String()),
  recursive: Recursive(),
});
export const TeamPermissionParams = Strict({ team_id: Uuid(), user_id: UserIdOrMe(), permission_id: Type.String() });

export const ProjectPermission = Strict({ id: Type.String(), user_id: Uuid() });
export const ProjectPermissionList = List(ProjectPermission);
export type ProjectPermission = Static<typeof ProjectPermission>;
export const ProjectPermissionListQuery = Strict({
  user_id: Type.Optional(UserIdOrMe()),
  permission_id: Type.Optional(Type.String()),
  recursive: Recursive(),
});
export const ProjectPermissionParams = Strict({ user_id: UserIdOrMe(), permission_id: Type.String() });

/** Grant/revoke bodies: an empty object (or none). */
export const EmptyBody = Type.Optional(Strict({}));
