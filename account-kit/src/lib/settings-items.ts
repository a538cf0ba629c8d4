// The account settings sidebar (client-library §7.1): which items exist, in which order, and which one is shown
// for the URL hash at a given width. Pure.

export interface SettingsItemBase {
  id: string;
  title: string;
}
export type SettingsEntry<I extends SettingsItemBase> = { kind: 'item'; item: I } | { kind: 'divider'; title: string };

export interface ItemConditions {
  allowUserApiKeys: boolean;
  clientTeamCreationEnabled: boolean;
  teamCount: number;
}

export type BuiltinId = 'profile' | 'auth' | 'sessions' | 'api-keys' | 'settings';

/** The built-in items, in order, that the project's config keeps. */
export function builtinItemIds(c: ItemConditions): BuiltinId[] {
  return ['profile', 'auth', 'sessions', ...(c.allowUserApiKeys ? (['api-keys'] as const) : []), 'settings'];
}

export function showTeamsDivider(c: ItemConditions): boolean {
  return c.teamCount > 0 || c.clientTeamCreationEnabled;
}

/** The hash without `#` (URL-decoded), or '' for none. */
export function hashId(hash: string): string {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  try { return decodeURIComponent(raw); } catch { return raw; }
}

/**
 * The item shown: the one whose id is the hash; on wide screens the first item when nothing matches; on small
 * screens nothing (the list alone).
 */
export function selectedItem<I extends SettingsItemBase>(items: readonly I[], hash: string, wide: boolean): I | null {
  const id = hashId(hash);
  return items.find((i) => i.id === id) ?? (wide ? items[0] ?? null : null);
}

export const SMALL_SCREEN_MAX_PX = 640;
export const HASH_POLL_MS = 10;
export const SIDEBAR_PX = 200;
export const CONTENT_MAX_PX = 800;
