// The command palette's entries: the screens of the open project, the projects of the connection, its teams by
// name or id, and users found by email. Each entry says where it goes; the component only shows them and navigates.
import { PROJECT_SCREENS, type ProjectScreen, type Route } from './routes';

export type PaletteGroup = 'screens' | 'projects' | 'teams' | 'users';

export interface PaletteEntry {
  id: string;
  group: PaletteGroup;
  label: string;
  description?: string;
  /** Extra words the palette's filter matches (never shown). */
  keywords?: string[];
  route: Route;
}

export interface PaletteProject {
  id: string;
  name: string;
}

export interface PaletteUser {
  id: string;
  primaryEmail: string | null;
  displayName: string | null;
}

/** A user search starts once the query could be part of an email address: a few characters, no spaces. */
export const USER_QUERY_MIN_LENGTH = 2;

export function userSearchQuery(query: string): string | null {
  const q = query.trim();
  return q.length >= USER_QUERY_MIN_LENGTH && !/\s/.test(q) ? q : null;
}

export function screenEntries(
  connectionId: string,
  projectId: string,
  screenLabel: (screen: ProjectScreen) => string,
  screens: readonly ProjectScreen[] = PROJECT_SCREENS,
): PaletteEntry[] {
  return screens.map((screen) => ({
    id: `screen:${screen}`,
    group: 'screens',
    label: screenLabel(screen),
    keywords: [screen],
    route: { name: 'project', connectionId, projectId, screen },
  }));
}

export function projectEntries(connectionId: string, projects: readonly PaletteProject[], currentProjectId: string | null): PaletteEntry[] {
  return projects
    .filter((p) => p.id !== currentProjectId)
    .map((p) => ({
      id: `project:${p.id}`,
      group: 'projects',
      label: p.name,
      description: p.id,
      keywords: [p.id],
      route: { name: 'project', connectionId, projectId: p.id, screen: 'overview' },
    }));
}

/**
 * Users of the open project matching the query. The service's `query` also matches names and ids; the palette is
 * for finding someone by email, so users are labelled by their email (those without one by their name or id).
 * The route is the Users screen's user page.
 */
export function userEntries(connectionId: string, projectId: string, users: readonly PaletteUser[]): PaletteEntry[] {
  return users.map((u) => ({
    id: `user:${u.id}`,
    group: 'users',
    label: u.primaryEmail ?? u.displayName ?? u.id,
    description: u.primaryEmail ? (u.displayName ?? undefined) : undefined,
    keywords: [u.id, u.displayName ?? ''].filter(Boolean),
    route: userRoute(connectionId, projectId, u.id),
  }));
}

export interface PaletteTeam {
  id: string;
  displayName: string;
}

/** Teams of the open project, matched by name or id like screens (the list is the project's, already loaded). */
export function teamEntries(connectionId: string, projectId: string, teams: readonly PaletteTeam[]): PaletteEntry[] {
  return teams.map((team) => ({
    id: `team:${team.id}`,
    group: 'teams',
    label: team.displayName,
    keywords: [team.id],
    route: { name: 'project', connectionId, projectId, screen: 'teams', itemId: team.id },
  }));
}

/**
 * Enter pressed while the user search for this very query was still on its way: once it answers, the first entry
 * is where Enter meant to go (null while the answer is not in, or when it found nothing).
 */
export function entryForPendingEnter(pendingQuery: string | null, answeredQuery: string | null, entries: readonly PaletteEntry[]): PaletteEntry | null {
  if (pendingQuery === null || answeredQuery !== pendingQuery) return null;
  return entries[0] ?? null;
}

export function userRoute(connectionId: string, projectId: string, userId: string): Route {
  return { name: 'project', connectionId, projectId, screen: 'users', itemId: userId };
}

/**
 * What the palette shows for a query: screens and projects whose label, description or keywords contain every word
 * of it (any case); users as the service found them (it matched the query already, also on what is not shown).
 * Empty query: screens and projects only.
 */
export function filterEntries(entries: readonly PaletteEntry[], query: string): PaletteEntry[] {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return entries.filter((e) => {
    if (e.group === 'users') return words.length > 0;
    // Teams only for a query: a project's teams would otherwise push everything else down the list.
    if (e.group === 'teams' && words.length === 0) return false;
    const text = [e.label, e.description ?? '', ...(e.keywords ?? [])].join(' ').toLowerCase();
    return words.every((w) => text.includes(w));
  });
}
