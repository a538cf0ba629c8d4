// A project's owners (Gatehouse's admin API): the internal project's users whose server metadata lists the project in
// `managedProjectIds`, the protocol's model of ownership (protocol-resources §10.5).
import { Type, type Static } from '@sinclair/typebox';
import { List, Millis, Nullable, Strict, Uuid } from './common.ts';

export const ProjectOwner = Strict({
  user_id: Uuid(),
  display_name: Nullable(Type.String()),
  primary_email: Nullable(Type.String()),
  signed_up_at_millis: Millis(),
});
export type ProjectOwner = Static<typeof ProjectOwner>;
export const ProjectOwnerList = List(ProjectOwner);
export const ProjectOwnerParams = Strict({ user_id: Uuid() });
