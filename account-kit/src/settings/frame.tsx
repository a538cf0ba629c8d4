// The account settings frame (client-library §7.1): the sidebar titled "Account Settings" with its items in
// order, the selected item from the URL hash; wide screens show the list and the item side by side, small
// screens (below 640 px) the list alone or one item with a close button.
import { useEffect, type ReactNode } from 'react';
import { Box, CloseButton, Divider, Flex, Group, NavLink, Stack, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconCirclePlus, IconId, IconKey, IconDeviceDesktop, IconSettings, IconShieldCheck, IconPoint } from '@tabler/icons-react';
import type { CurrentUser, Team } from '@gatehouse/shared/client';
import { useGatehouseApp, useTranslate } from '../context';
import { TeamAvatar } from '../components/user-avatar';
import { useProject } from '../hooks/use-project';
import { useUser } from '../hooks/use-user';
import { useTeams } from '../hooks/use-user-data';
import { builtinItemIds, CONTENT_MAX_PX, selectedItem, showTeamsDivider, SIDEBAR_PX, SMALL_SCREEN_MAX_PX, type BuiltinId } from '../lib/settings-items';
import type { MessageKey } from '../messages';
import type { SkeletonKind } from '../widgets/section-skeletons';
import { ApiKeysSection } from './api-keys';
import { AuthItem } from './auth';
import { CreateTeamSection } from './create-team';
import { ProfileSection } from './profile';
import { SectionBoundary } from './section-boundary';
import { SessionsSection } from './sessions';
import { SettingsActionsProvider } from './settings-actions';
import { SettingsItem } from './settings';
import { TeamPage } from './team';
import { goToItem, useHash } from './use-hash';
import { FrameSkeleton } from './frame-skeleton';
import { isLeaving } from './leaving';
import { TruncatedText } from '../widgets/truncated-text';
import { FullPageBox } from '../components/full-page-box';

export interface ExtraSettingsItem {
  id: string;
  title: string;
  content: ReactNode;
  /** A custom icon (any React node). */
  icon?: ReactNode;
  /** Not used by this kit's icon set beyond a generic mark; kept for hosts written against the SDK. */
  iconName?: string;
}

export interface SettingsFrameProps {
  fullPage?: boolean;
  extraItems?: ExtraSettingsItem[];
}

interface Item {
  id: string;
  title: string;
  icon: ReactNode;
  skeleton: SkeletonKind;
  render: () => ReactNode;
  /** Items after the "Teams" divider. */
  team?: Team;
}

const BUILTIN: Record<BuiltinId, { key: MessageKey; icon: ReactNode; skeleton: SkeletonKind; render: (user: CurrentUser) => ReactNode }> = {
  profile: { key: 'settings.nav.profile', icon: <IconId size={18} aria-hidden />, skeleton: 'default', render: (u) => <ProfileSection user={u} /> },
  auth: { key: 'settings.nav.auth', icon: <IconShieldCheck size={18} aria-hidden />, skeleton: 'auth', render: (u) => <AuthItem user={u} /> },
  sessions: { key: 'settings.nav.sessions', icon: <IconDeviceDesktop size={18} aria-hidden />, skeleton: 'sessions', render: (u) => <SessionsSection user={u} /> },
  'api-keys': { key: 'settings.nav.apiKeys', icon: <IconKey size={18} aria-hidden />, skeleton: 'table', render: (u) => <ApiKeysSection user={u} /> },
  settings: { key: 'settings.nav.settings', icon: <IconSettings size={18} aria-hidden />, skeleton: 'default', render: (u) => <SettingsItem user={u} /> },
};

export function SettingsFrame(props: SettingsFrameProps) {
  const user = useUser();
  if (!user) return <SignedOut />;
  return <SignedInFrame user={user} {...props} />;
}

/** No user: off to sign-in (and back here afterwards), unless the person is leaving on purpose. */
function SignedOut() {
  const app = useGatehouseApp();
  useEffect(() => {
    if (!isLeaving()) void app.redirectToSignIn({ replace: true });
  }, [app]);
  return <FrameSkeleton />;
}

function SignedInFrame({ user, fullPage, extraItems = [] }: SettingsFrameProps & { user: CurrentUser }) {
  const t = useTranslate();
  const project = useProject();
  const teams = useTeams(user);
  const hash = useHash();
  const wide = useMediaQuery(`(min-width: ${SMALL_SCREEN_MAX_PX}px)`, true, { getInitialValueInEffect: false });
  const conditions = { allowUserApiKeys: project.config.allowUserApiKeys, clientTeamCreationEnabled: project.config.clientTeamCreationEnabled, teamCount: teams.length };

  const items: Item[] = [
    ...builtinItemIds(conditions).map((id) => ({ id, title: t(BUILTIN[id].key), icon: BUILTIN[id].icon, skeleton: BUILTIN[id].skeleton, render: () => BUILTIN[id].render(user) })),
    ...extraItems.filter((x) => x.content != null).map((x) => ({ id: x.id, title: x.title, icon: x.icon ?? <IconPoint size={18} aria-hidden />, skeleton: 'default' as const, render: () => x.content })),
    ...teams.map((team) => ({ id: `team-${team.id}`, title: team.displayName, icon: <TeamAvatar team={team} size={24} />, skeleton: 'team' as const, render: () => <TeamPage user={user} team={team} />, team })),
    ...(project.config.clientTeamCreationEnabled
      ? [{ id: 'team-creation', title: t('settings.nav.createTeam'), icon: <IconCirclePlus size={18} aria-hidden />, skeleton: 'default' as const, render: () => <CreateTeamSection user={user} onCreated={(id) => goToItem(`team-${id}`)} /> }]
      : []),
  ];
  const selected = selectedItem(items, hash, wide);
  const firstAfterDivider = items.find((i) => i.team || i.id === 'team-creation')?.id;
  const dividerShown = showTeamsDivider(conditions);

  const nav = (
    <Stack gap={4} component="nav" aria-label={t('settings.nav.label')}>
      {items.map((item) => (
        <Box key={item.id}>
          {dividerShown && item.id === firstAfterDivider && (
            <Divider my="xs" label={t('settings.nav.teams')} labelPosition="left" />
          )}
          <NavLink
            href={`#${item.id}`}
            label={item.team ? <TruncatedText size="sm" maw={320}>{item.title}</TruncatedText> : item.title}
            leftSection={item.icon}
            active={selected?.id === item.id}
            aria-current={selected?.id === item.id ? 'page' : undefined}
            variant="light"
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          />
        </Box>
      ))}
      {dividerShown && !firstAfterDivider && <Divider my="xs" label={t('settings.nav.teams')} labelPosition="left" />}
    </Stack>
  );

  const content = selected && (
    <SettingsActionsProvider user={user} sectionId={selected.id}>
      <SectionBoundary key={selected.id} skeleton={selected.skeleton}>{selected.render()}</SectionBoundary>
    </SettingsActionsProvider>
  );

  return (
    <FullPageBox fullPage={fullPage}>
      {wide ? (
        <Flex gap="xl" align="flex-start" px="md" py="lg" maw={SIDEBAR_PX + CONTENT_MAX_PX + 80} mx="auto">
          <Stack w={SIDEBAR_PX} gap="sm" style={{ flexShrink: 0 }}>
            <Title order={1} size="h4" px="xs">{t('settings.title')}</Title>
            {nav}
          </Stack>
          <Box style={{ flex: 1, minWidth: 0 }} maw={CONTENT_MAX_PX} data-testid="settings-content">
            {selected && <Title order={2} size="h3" mb="md" style={{ overflowWrap: 'anywhere' }}>{selected.title}</Title>}
            {content}
          </Box>
        </Flex>
      ) : selected ? (
        <Box px="sm" py="md" data-testid="settings-content">
          <Group justify="space-between" wrap="nowrap" mb="md">
            <Title order={2} size="h3" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>{selected.title}</Title>
            <CloseButton aria-label={t('settings.nav.close')} onClick={() => goToItem('')} />
          </Group>
          {content}
        </Box>
      ) : (
        <Stack px="sm" py="md" gap="sm">
          <Title order={1} size="h4" px="xs">{t('settings.title')}</Title>
          {nav}
        </Stack>
      )}
    </FullPageBox>
  );
}

