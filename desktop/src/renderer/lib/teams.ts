// Teams in the console: the list's search, the team form's validation (the service's schema), the metadata
// editors' JSON rule, a member's permissions split into granted and contained, and the invitation link's target.
import type { AdminDomainConfig } from '@gatehouse/shared/client';
import { ServerTeamCreate } from '@gatehouse/shared/schemas/teams';
import { expandPermissions } from '@gatehouse/shared/rules/permissions';
import { urlText } from './field-rules';
import { formErrors, schemaProblems } from './schema-check';

export { parseJsonText, type ParsedJson } from './field-rules';

/** How a member is named in lists and dialogs: the address, else the display name, else the id. */
export const memberName = (u: { primaryEmail: string | null; displayName: string | null; id: string }) => u.primaryEmail ?? u.displayName ?? u.id;

export interface TeamLike {
  id: string;
  displayName: string;
}

/** Teams whose name or id contains the search (any case), by name. */
export function filterTeams<T extends TeamLike>(teams: readonly T[], search: string): T[] {
  const q = search.trim().toLowerCase();
  const hits = q ? teams.filter((t) => t.displayName.toLowerCase().includes(q) || t.id.toLowerCase() === q) : [...teams];
  return hits.sort((a, b) => a.displayName.localeCompare(b.displayName) || a.id.localeCompare(b.id));
}

export interface TeamFormValues {
  displayName: string;
  profileImageUrl: string;
}

/** The body the service receives: an empty image field clears the image. */
export function teamFormBody(v: TeamFormValues): { displayName: string; profileImageUrl: string | null } {
  return { displayName: v.displayName.trim(), profileImageUrl: v.profileImageUrl.trim() || null };
}

/** `texts`: the "required" message and the image field's name (the URL rule's message follows it). */
export function validateTeamForm(v: TeamFormValues, texts: { required: string; image: string }): Record<string, string> {
  const body = teamFormBody(v);
  const errors = body.displayName
    ? formErrors(schemaProblems(ServerTeamCreate, { display_name: body.displayName }), { '/display_name': 'displayName' })
    : { displayName: texts.required };
  // The service checks the image as a URL (shared rule); the bare schema here does not know that format.
  const imageProblem = body.profileImageUrl === null ? null : urlText(texts.image, body.profileImageUrl);
  if (imageProblem) errors.profileImageUrl = imageProblem;
  return errors;
}

export function jsonText(value: unknown): string {
  return value === null || value === undefined ? '' : JSON.stringify(value, null, 2);
}

export interface MemberPermissionRow {
  id: string;
  /** Granted directly (can be revoked); otherwise only held through a permission that contains it. */
  direct: boolean;
  /** The directly granted permissions that contain this one. */
  via: string[];
}

/**
 * A member's permissions: each direct grant, and each permission it holds only through containment, with the
 * grants that bring it. `held` is what the service lists with recursive=true (the truth); `definitions` only
 * explain where a contained one comes from.
 */
export function memberPermissionRows(
  direct: readonly string[],
  held: readonly string[],
  definitions: ReadonlyMap<string, readonly string[]>,
): MemberPermissionRow[] {
  const directSet = new Set(direct);
  const closures = new Map(direct.map((d) => [d, expandPermissions([d], definitions)]));
  const ids = [...new Set([...direct, ...held])].sort((a, b) => Number(directSet.has(b)) - Number(directSet.has(a)) || (a < b ? -1 : a > b ? 1 : 0));
  return ids.map((id) => ({
    id,
    direct: directSet.has(id),
    via: direct.filter((d) => d !== id && closures.get(d)!.has(id)).sort(),
  }));
}

/** What may still be granted directly: every definition not granted yet, by id. */
export function grantableIds(allIds: readonly string[], direct: readonly string[]): string[] {
  const has = new Set(direct);
  return allIds.filter((id) => !has.has(id)).sort();
}

/**
 * Where an invitation's link leads: the project's own app (its first trusted domain and handler path), or the
 * service's account kit when the project has no domain yet. The service refuses a link it does not trust.
 */
export function invitationCallbackUrl(domains: readonly AdminDomainConfig[], serviceUrl: string): string {
  const first = domains[0];
  if (first) return `${first.domain.replace(/\/+$/, '')}${first.handlerPath.replace(/\/+$/, '')}/team-invitation`;
  return `${serviceUrl.replace(/\/+$/, '')}/handler/team-invitation`;
}
