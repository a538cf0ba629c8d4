import type { ReactNode } from 'react';
import { Group, Title } from '@mantine/core';

export function ScreenHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Group justify="space-between" align="center" mb="md" wrap="wrap">
      <Title order={1} size="h2">{title}</Title>
      {children}
    </Group>
  );
}
