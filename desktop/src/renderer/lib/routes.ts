// Hash routes (they work from file:// in the desktop app and under /console on the web):
//   #/                                   connect
//   #/c/<connection>                     the connection's projects (owner) or its project
//   #/c/<connection>/sign-in|sign-up     owner sign-in
//   #/c/<connection>/owner-invitation?code=<code>   accept an invitation to co-own a project (the mail's link)
//   #/c/<connection>/p/<project>/<screen>
//   #/c/<connection>/p/<project>/<screen>/<item>   one item of a screen's list (teams/<teamId>, users/<userId>)
export const PROJECT_SCREENS = [
  'overview', 'configuration', 'security', 'oauth-providers', 'oauth-apps', 'email', 'email-templates', 'api-keys', 'team-permissions', 'project-permissions', 'sent-emails',
  'users', 'teams', 'metrics', 'webhooks', 'audit-log', 'owners',
] as const;
export type ProjectScreen = (typeof PROJECT_SCREENS)[number];

export type Route =
  | { name: 'connect' }
  | { name: 'projects'; connectionId: string }
  | { name: 'sign-in' | 'sign-up'; connectionId: string }
  | { name: 'owner-invitation'; connectionId: string; code: string | null }
  | { name: 'project'; connectionId: string; projectId: string; screen: ProjectScreen; itemId?: string };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('?')[0]!.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] !== 'c' || !parts[1]) return { name: 'connect' };
  const connectionId = parts[1];
  if (parts[2] === 'sign-in' || parts[2] === 'sign-up') return { name: parts[2], connectionId };
  if (parts[2] === 'owner-invitation') return { name: 'owner-invitation', connectionId, code: new URLSearchParams(hash.split('?')[1] ?? '').get('code') };
  if (parts[2] === 'p' && parts[3]) {
    const screen = (PROJECT_SCREENS as readonly string[]).includes(parts[4] ?? '') ? (parts[4] as ProjectScreen) : 'overview';
    const itemId = screen === parts[4] ? parts[5] : undefined;
    return itemId ? { name: 'project', connectionId, projectId: parts[3], screen, itemId } : { name: 'project', connectionId, projectId: parts[3], screen };
  }
  return { name: 'projects', connectionId };
}

export function routeHash(route: Route): string {
  const e = encodeURIComponent;
  switch (route.name) {
    case 'connect':
      return '#/';
    case 'projects':
      return `#/c/${e(route.connectionId)}`;
    case 'sign-in':
    case 'sign-up':
      return `#/c/${e(route.connectionId)}/${route.name}`;
    case 'owner-invitation':
      return `#/c/${e(route.connectionId)}/owner-invitation${route.code ? `?code=${e(route.code)}` : ''}`;
    case 'project':
      return `#/c/${e(route.connectionId)}/p/${e(route.projectId)}/${route.screen}${route.itemId ? `/${e(route.itemId)}` : ''}`;
  }
}

/**
 * Where a redirect of the client library (sign-in ↔ sign-up links, after sign-in) goes in the console: a route,
 * or null for pages the console does not have (email verification and other handler pages: the service's).
 */
export function routeForRedirect(url: string, connectionId: string): Route | null {
  const path = url.split('?')[0]!.split('#')[0]!;
  if (path.endsWith('/sign-up')) return { name: 'sign-up', connectionId };
  if (path.endsWith('/sign-in')) return { name: 'sign-in', connectionId };
  if (path === '/console/' || path === '/console' || path === '/') return { name: 'projects', connectionId };
  return null;
}
