// How long a person's or a team's display name may be (issue 25: a 347-character team name was accepted and pushed
// the account kit's header apart). The service's request schemas and the account kit's fields both use this one
// limit: a name the screens let through is one the service takes.

/** User display names, team display names and a member's name in a team. */
export const DISPLAY_NAME_MAX_LENGTH = 100;

/** Is a (trimmed or not) display name longer than the limit? */
export function isDisplayNameTooLong(name: string): boolean {
  return name.length > DISPLAY_NAME_MAX_LENGTH;
}
