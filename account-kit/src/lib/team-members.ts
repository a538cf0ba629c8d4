// How a team member is named in the members table (issue 25): their team display name, else the primary email
// the service tells a member who may read members; null when neither is known. Pure.

export function memberName(m: { teamProfile: { displayName: string | null }; primaryEmail: string | null }): string | null {
  return m.teamProfile.displayName?.trim() || m.primaryEmail || null;
}
