// Display names of the OAuth providers the protocol knows (seed §9), in the order the buttons appear.
export const OAUTH_PROVIDER_NAMES: Record<string, string> = {
  google: 'Google',
  github: 'GitHub',
  microsoft: 'Microsoft',
  apple: 'Apple',
  facebook: 'Facebook',
  discord: 'Discord',
  gitlab: 'GitLab',
  bitbucket: 'Bitbucket',
  linkedin: 'LinkedIn',
  spotify: 'Spotify',
  x: 'X',
};

export function oauthProviderName(id: string): string {
  return OAUTH_PROVIDER_NAMES[id] ?? id.charAt(0).toUpperCase() + id.slice(1);
}

/** Enabled providers in the catalogue's order (unknown ids last, as given). */
export function orderProviders(ids: readonly string[]): string[] {
  const known = Object.keys(OAUTH_PROVIDER_NAMES);
  return [...ids].sort((a, b) => (known.indexOf(a) === -1 ? 99 : known.indexOf(a)) - (known.indexOf(b) === -1 ? 99 : known.indexOf(b)));
}
