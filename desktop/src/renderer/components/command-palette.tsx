// The command palette (Ctrl/Cmd+K, or the header's search button): jump to a screen of the open project, to
// another project of the connection, to a team by name, or to a user of the open project found by email.
import { useEffect, useState } from 'react';
import { Button, Kbd, Text } from '@mantine/core';
import { Spotlight, createSpotlight, type SpotlightActionGroupData } from '@mantine/spotlight';
import { IconSearch } from '@tabler/icons-react';
import { useProjectContext } from '../hooks/use-project-context';
import { navigate } from '../hooks/use-route';
import { useUserSearch } from '../hooks/use-user-search';
import { useTeamsIfLoaded } from '../hooks/use-teams';
import {
  entryForPendingEnter, filterEntries, projectEntries, screenEntries, teamEntries, userEntries, userSearchQuery, type PaletteGroup, type PaletteProject,
} from '../lib/palette';
import { t } from '../messages';
import { ErrorMessage } from './error-message';

// The palette's own store: Enter needs to know whether an entry is selected (one that arrived after the typing is not).
const [paletteStore, palette] = createSpotlight();

const GROUP_LABEL = { screens: 'palette.screens', projects: 'palette.projects', teams: 'palette.teams', users: 'palette.users' } as const satisfies Record<PaletteGroup, string>;

export function CommandPalette({ projects }: { projects: readonly PaletteProject[] }) {
  const { connection, projectId } = useProjectContext();
  const [query, setQuery] = useState('');
  // Enter typed before the user search answered: kept for that query, acted on when its answer comes.
  const [pendingEnter, setPendingEnter] = useState<string | null>(null);
  const userQuery = userSearchQuery(query);
  const found = useUserSearch(userQuery, 6);
  const [everOpened, setEverOpened] = useState(false);
  const teams = useTeamsIfLoaded(everOpened);
  const entries = filterEntries(
    [
      ...screenEntries(connection.id, projectId, (s) => t(`nav.${s}`)),
      ...projectEntries(connection.id, projects, projectId),
      ...teamEntries(connection.id, projectId, teams),
      ...(userQuery ? userEntries(connection.id, projectId, found.users) : []),
    ],
    query,
  );
  const answered = found.status === 'ok' ? found.query : null;
  useEffect(() => {
    if (pendingEnter === null || answered !== pendingEnter) return;
    setPendingEnter(null);
    const entry = entryForPendingEnter(pendingEnter, answered, entries);
    if (entry) {
      palette.close();
      navigate(entry.route);
    }
  }, [pendingEnter, answered, entries]);
  const groups: SpotlightActionGroupData[] = (Object.keys(GROUP_LABEL) as PaletteGroup[])
    .map((group) => ({
      group: t(GROUP_LABEL[group]),
      actions: entries
        .filter((e) => e.group === group)
        .map((e) => ({ id: e.id, label: e.label, description: e.description, onClick: () => navigate(e.route) })),
    }))
    .filter((g) => g.actions.length > 0);
  const nothing =
    found.status === 'error' ? <>{t('palette.usersFailed')} <ErrorMessage error={found.error} /></>
    : userQuery && found.status === 'loading' ? t('palette.searchingUsers')
    : t('palette.nothing');
  return (
    <Spotlight
      store={paletteStore}
      onSpotlightOpen={() => setEverOpened(true)}
      actions={groups}
      query={query}
      onQueryChange={(q) => { setQuery(q); setPendingEnter(null); }}
      // Entries are filtered above: users come already matched by the service.
      filter={(_, actions) => actions}
      nothingFound={nothing}
      shortcut={['mod + K']}
      scrollable
      maxHeight={420}
      attributes={{ content: { 'aria-label': t('palette.open') } }}
      searchProps={{
        placeholder: t('palette.placeholder'), 'aria-label': t('palette.search'), leftSection: <IconSearch size={18} aria-hidden />,
        onKeyDown: (e) => {
          if (e.key !== 'Enter') return;
          // Entries that arrived after the last keystroke (teams, users) are listed but not selected: Enter takes the
          // first; with none yet and the user search on its way, Enter waits for its answer.
          if (entries.length > 0 && paletteStore.getState().selected === -1) {
            palette.close();
            navigate(entries[0]!.route);
          } else if (entries.length === 0 && userQuery !== null && answered !== userQuery) setPendingEnter(userQuery);
        },
      }}
    />
  );
}

/** The header's way into the palette for pointers (the shortcut is shown on the button). */
export function PaletteButton() {
  // Phones have the navigation menu and no keyboard shortcut; their header has no room to spare.
  return (
    <Button
      variant="default"
      size="sm"
      visibleFrom="sm"
      leftSection={<IconSearch size={16} aria-hidden />}
      rightSection={<Kbd size="xs" aria-hidden style={{ whiteSpace: 'nowrap' }}>Ctrl K</Kbd>}
      title={t('palette.open')}
      onClick={() => palette.open()}
    >
      <Text span size="sm" c="dimmed">{t('palette.button')}</Text>
    </Button>
  );
}
