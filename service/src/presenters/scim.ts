// SCIM resources as the team's identity provider reads them (RFC 7643 §4, RFC 7644 §3.4.2), and the SCIM tokens
// and groups as the owner's server and admin API shows them (shared/src/schemas/team-enterprise.ts).
import type { ScimGroup, ScimToken } from '@gatehouse/shared/schemas/team-enterprise';
import type { GroupMember, ScimGroupRow, ScimTokenRow, ScimUserRecord } from '../repo/scim';

export const SCIM_SCHEMAS = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  list: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  patch: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
} as const;

/** `{public URL}/scim/v2/{team id}` */
export const scimBaseUrl = (publicUrl: string, teamId: string) => `${publicUrl}/scim/v2/${teamId}`;

export function scimUserResource(r: ScimUserRecord, baseUrl: string) {
  return {
    schemas: [SCIM_SCHEMAS.user],
    id: r.userId,
    ...(r.externalId !== null ? { externalId: r.externalId } : {}),
    userName: r.userName,
    ...(r.name ? { name: r.name } : {}),
    ...(r.displayName !== null ? { displayName: r.displayName } : {}),
    emails: r.email ? [{ value: r.email, type: 'work', primary: true }] : [],
    active: r.active,
    meta: { resourceType: 'User', created: r.createdAt.toISOString(), lastModified: r.updatedAt.toISOString(), location: `${baseUrl}/Users/${r.userId}` },
  };
}

export function scimGroupResource(group: ScimGroupRow, members: GroupMember[], baseUrl: string) {
  return {
    schemas: [SCIM_SCHEMAS.group],
    id: group.id,
    ...(group.externalId !== null ? { externalId: group.externalId } : {}),
    displayName: group.displayName,
    members: members.map((m) => ({ value: m.userId, display: m.display ?? undefined, $ref: `${baseUrl}/Users/${m.userId}` })),
    meta: { resourceType: 'Group', created: group.createdAt.toISOString(), lastModified: group.updatedAt.toISOString(), location: `${baseUrl}/Groups/${group.id}` },
  };
}

export function scimListResponse<T>(resources: T[], total: number, startIndex: number) {
  return { schemas: [SCIM_SCHEMAS.list], totalResults: total, startIndex, itemsPerPage: resources.length, Resources: resources };
}

export function scimErrorDocument(status: number, detail: string, scimType?: string) {
  return { schemas: [SCIM_SCHEMAS.error], status: String(status), ...(scimType ? { scimType } : {}), detail };
}

export function scimTokenView(row: ScimTokenRow): ScimToken {
  return {
    id: row.id, team_id: row.teamId, description: row.description,
    created_at_millis: row.createdAt.getTime(), last_used_at_millis: row.lastUsedAt?.getTime() ?? null,
  };
}

export function scimGroupView(group: ScimGroupRow, memberCount: number): ScimGroup {
  return {
    id: group.id, team_id: group.teamId, display_name: group.displayName, external_id: group.externalId,
    member_count: memberCount, permission_ids: group.permissionIds, created_at_millis: group.createdAt.getTime(),
  };
}
