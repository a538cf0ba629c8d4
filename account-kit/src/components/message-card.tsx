// The card every handler page uses for states (invalid link, success, errors): a title, text and actions.
import type { ReactNode } from 'react';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';

export interface MessageCardProps {
  title: string;
  children?: ReactNode;
  primaryAction?: { label: string; onClick: () => void };
  secondaryAction?: { label: string; onClick: () => void };
  role?: 'alert' | 'status';
}

export function MessageCard({ title, children, primaryAction, secondaryAction, role }: MessageCardProps) {
  return (
    <AuthCard>
      <Stack gap="md" role={role}>
        <Title order={2} size="h3" ta="center">{title}</Title>
        {typeof children === 'string' ? <Text ta="center" c="dimmed">{children}</Text> : children}
        {(primaryAction || secondaryAction) && (
          <Group justify="center" gap="sm">
            {secondaryAction && <Button variant="default" onClick={secondaryAction.onClick}>{secondaryAction.label}</Button>}
            {primaryAction && <Button onClick={primaryAction.onClick}>{primaryAction.label}</Button>}
          </Group>
        )}
      </Stack>
    </AuthCard>
  );
}

/** The frame of the auth pages: a centred card, full width on phones. */
export function AuthCard({ children }: { children: ReactNode }) {
  return (
    <Paper withBorder shadow="sm" radius="md" p={{ base: 'md', xs: 'xl' }} w="100%" maw={420} mx="auto">
      {children}
    </Paper>
  );
}
