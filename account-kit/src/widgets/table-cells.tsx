// Table cells of the settings tables (seed §2 "Small widgets"): text, avatar, date (with the "Never" rule),
// badge and an action menu whose disabled items say why.
import type { ReactNode } from 'react';
import { ActionIcon, Badge, Box, Group, Menu, Stack, Table, Text, Tooltip, type MantineBreakpoint, type MantineColor } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import { useTranslate } from '../context';
import { isBeyondYears } from '../lib/relative-time';
import { TeamAvatar, UserAvatar } from '../components/user-avatar';

/** `visibleFrom`: a column a phone leaves out (its row shows the value elsewhere, folded under the first cell). */
export function TextCell({ children, dimmed, width, visibleFrom }: { children: ReactNode; dimmed?: boolean; width?: number | string; visibleFrom?: MantineBreakpoint }) {
  return (
    <Table.Td w={width} visibleFrom={visibleFrom}>
      <Text size="sm" c={dimmed ? 'dimmed' : undefined} style={{ overflowWrap: 'anywhere' }}>{children}</Text>
    </Table.Td>
  );
}

export function AvatarCell({ user, team, size = 28 }: { user?: { displayName?: string | null; primaryEmail?: string | null; profileImageUrl?: string | null }; team?: { displayName?: string | null; profileImageUrl?: string | null }; size?: number }) {
  return <Table.Td w={size + 24}>{team ? <TeamAvatar team={team} size={size} /> : <UserAvatar user={user ?? null} size={size} />}</Table.Td>;
}

export interface DateCellProps {
  date: Date | null | undefined;
  /** Dates further ahead than this many years read "Never" (API keys: 50). */
  neverAfterYears?: number;
  withTime?: boolean;
}

export function DateCell({ date, neverAfterYears, withTime }: DateCellProps) {
  const t = useTranslate();
  const never = !date || (neverAfterYears !== undefined && isBeyondYears(date, neverAfterYears));
  return (
    <Table.Td>
      <Text size="sm" title={!never ? date!.toLocaleString() : undefined}>
        {never ? t('settings.never') : withTime ? date!.toLocaleString() : date!.toLocaleDateString()}
      </Text>
    </Table.Td>
  );
}

export type BadgeSpec = { label: string; color?: MantineColor; variant?: 'light' | 'outline' | 'filled' };

export function Badges({ badges }: { badges: BadgeSpec[] }) {
  return <Group gap={4}>{badges.map((b) => <Badge key={b.label} size="sm" color={b.color ?? 'gray'} variant={b.variant ?? 'light'}>{b.label}</Badge>)}</Group>;
}

export function BadgeCell({ badges, visibleFrom }: { badges: BadgeSpec[]; visibleFrom?: MantineBreakpoint }) {
  return (
    <Table.Td visibleFrom={visibleFrom}>
      <Badges badges={badges} />
    </Table.Td>
  );
}

export interface ActionMenuItem {
  label: string;
  onClick: () => void;
  danger?: boolean;
  /** When set, the item is disabled and this text explains why (tooltip). */
  disabledReason?: string | null;
}

/** A "⋯" button opening a menu; a disabled item keeps its tooltip (hover) and its reason for screen readers. */
export function ActionMenuCell({ items, label }: { items: ActionMenuItem[]; label: string }) {
  return (
    <Table.Td w={56} ta="right">
      <ActionMenu items={items} label={label} />
    </Table.Td>
  );
}

export function ActionMenu({ items, label }: { items: ActionMenuItem[]; label: string }) {
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={label}>
          <IconDots size={18} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {items.map((item) =>
          item.disabledReason ? (
            <Tooltip key={item.label} label={item.disabledReason} position="left" withinPortal>
              <Box>
                <Menu.Item disabled color={item.danger ? 'red' : undefined} aria-description={item.disabledReason}>{item.label}</Menu.Item>
              </Box>
            </Tooltip>
          ) : (
            <Menu.Item key={item.label} color={item.danger ? 'red' : undefined} onClick={item.onClick}>{item.label}</Menu.Item>
          ),
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

/** A cell with a main line and a small grey line below (sessions: kind + sign-in date). */
export function StackedCell({ main, sub, width, visibleFrom }: { main: ReactNode; sub?: ReactNode; width?: number | string; visibleFrom?: MantineBreakpoint }) {
  return (
    <Table.Td w={width} visibleFrom={visibleFrom}>
      <Stack gap={0}>
        <Box fz="sm">{main}</Box>
        {sub && <Text size="xs" c="dimmed">{sub}</Text>}
      </Stack>
    </Table.Td>
  );
}
