// The console's frame: a header (home, connection, light/dark) and, inside a project, the left navigation.
import type { ReactNode } from 'react';
import { ActionIcon, Anchor, AppShell, Burger, Group, Text, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconMoon, IconShieldLock, IconSun } from '@tabler/icons-react';
import { t } from '../messages';

export function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  return (
    <ActionIcon variant="default" size="lg" aria-label={t('app.colorScheme')} onClick={() => setColorScheme(scheme === 'dark' ? 'light' : 'dark')}>
      {scheme === 'dark' ? <IconSun size={18} aria-hidden /> : <IconMoon size={18} aria-hidden />}
    </ActionIcon>
  );
}

export function ConsoleShell({ navbar, context, contextAction, actions, children }: {
  navbar?: ReactNode; context?: string; contextAction?: ReactNode; actions?: ReactNode; children: ReactNode;
}) {
  const [opened, { toggle }] = useDisclosure(false);
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={navbar ? { width: 232, breakpoint: 'sm', collapsed: { mobile: !opened } } : undefined}
      padding="lg"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            {navbar && <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('app.openNavigation')} />}
            <Anchor href="#/" underline="never" c="var(--mantine-color-text)" fw={700}>
              <Group gap={6} wrap="nowrap">
                <IconShieldLock size={20} aria-hidden />
                {/* A phone's header has room for the name only: the full title took two lines of it. */}
                <Text span inherit visibleFrom="xs" style={{ whiteSpace: 'nowrap' }}>{t('app.title')}</Text>
                <Text span inherit hiddenFrom="xs">{t('app.shortTitle')}</Text>
              </Group>
            </Anchor>
            {context && (
              <Group gap={4} wrap="nowrap" visibleFrom="md" style={{ minWidth: 0 }}>
                <Text c="dimmed" size="sm" truncate data-testid="header-context">{context}</Text>
                {contextAction}
              </Group>
            )}
          </Group>
          {/* The actions keep their size; the context beside the title is what gives way. */}
          <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
            {actions}
            <ColorSchemeToggle />
          </Group>
        </Group>
      </AppShell.Header>
      {navbar && <AppShell.Navbar p="sm" component="nav" aria-label={t('app.navigation')}>{navbar}</AppShell.Navbar>}
      <AppShell.Main>
        <div style={{ maxWidth: 1100, margin: '0 auto' }}>
          {/* Narrower, the header cannot hold the connection and project whole: they head the page instead. */}
          {context && (
            <Group hiddenFrom="md" gap={4} mb="sm" wrap="nowrap">
              <Text c="dimmed" size="xs" style={{ overflowWrap: 'anywhere' }}>{context}</Text>
              {contextAction}
            </Group>
          )}
          {children}
        </div>
      </AppShell.Main>
    </AppShell>
  );
}
