// The command palette (Ctrl/Cmd+K, or the header's search button): jump to a screen of the open project, to
// another project of the connection, or to a user of the open project found by email.
import { useState } from 'react';
import { Button, Kbd, Text } from '@mantine/core';
import { Spotlight, spotlight, type SpotlightActionGroupData } from '@mantine/spotlight';
import { IconSearch } from '@tabler/icons-react';
import { useProjectContext } from '../hooks/use-project-context';
import { navigate } from '../hooks/use-route';
import { useUserSearch } from '../hooks/use-user-search';
import {
  filterEntries, projectEntries, screenEntries, userEntries, userSearchQuery, type PaletteGroup, type PaletteProject,
} from '../lib/palette';
import { t } from '../messages';
import { ErrorMessage } from './error-message';

const GROUP_LABEL = { screens: 'palette.screens', projects: 'palette.projects', users: 'palette.users' } as const satisfies Record<PaletteGroup, string>;

export function CommandPalette({ projects }: { projects: readonly PaletteProject[] }) {
  const { connection, projectId } = useProjectContext();
  const [query, setQuery] = useState('');
  const userQuery = userSearchQuery(query);
  const found = useUserSearch(userQuery, 6);
  const entries = filterEntries(
    [
      ...screenEntries(connection.id, projectId, (s) => t(`nav.${s}`)),
      ...projectEntries(connection.id, projects, projectId),
      ...(userQuery ? userEntries(connection.id, projectId, found.users) : []),
    ],
    query,
  );
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
      actions={groups}
      query={query}
      onQueryChange={setQuery}
      // Entries are filtered above: users come already matched by the service.
      filter={(_, actions) => actions}
      nothingFound={nothing}
      shortcut={['mod + K']}
      scrollable
      maxHeight={420}
      attributes={{ content: { 'aria-label': t('palette.open') } }}
      searchProps={{ placeholder: t('palette.placeholder'), 'aria-label': t('palette.search'), leftSection: <IconSearch size={18} aria-hidden /> }}
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
      onClick={() => spotlight.open()}
    >
      <Text span size="sm" c="dimmed">{t('palette.button')}</Text>
    </Button>
  );
}
