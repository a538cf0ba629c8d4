import type { ReactNode } from 'react';
import { Paper, Stack, Text } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';

export function EmptyState({ text, action }: { text: string; action?: ReactNode }) {
  return (
    <Paper withBorder p="xl" radius="md" data-testid="empty-state">
      <Stack align="center" gap="sm">
        <IconInbox size={32} aria-hidden color="var(--mantine-color-dimmed)" />
        <Text c="dimmed" ta="center">{text}</Text>
        {action}
      </Stack>
    </Paper>
  );
}
