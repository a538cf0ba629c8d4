// Avatar fallbacks (client-library §7.9, seed §2 "Small widgets"). Pure.

/** First two characters of the display name, else of the primary email, upper-cased; null when neither exists. */
export function userInitials(user: { displayName?: string | null; primaryEmail?: string | null } | null | undefined): string | null {
  const source = user?.displayName || user?.primaryEmail;
  return source ? source.slice(0, 2).toUpperCase() : null;
}

/** First letter of the team's name, upper-cased. */
export function teamInitial(team: { displayName?: string | null } | null | undefined): string {
  return (team?.displayName ?? '').slice(0, 1).toUpperCase();
}
