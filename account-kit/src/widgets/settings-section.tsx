// The common layout of a settings section (client-library §7.1): a separator, then the title (and a grey
// description) on the left and the controls on the right; stacked on small screens.
import type { ReactNode } from 'react';
import { Box, Divider, Flex, Stack, Text, Title } from '@mantine/core';

export interface SettingsSectionProps {
  title: string;
  description?: ReactNode;
  /** Controls shown to the right of the title (below it on small screens). */
  actions?: ReactNode;
  /** Content below the title row (tables, forms). */
  children?: ReactNode;
  id?: string;
}

export function SettingsSection({ title, description, actions, children, id }: SettingsSectionProps) {
  return (
    <Box component="section" aria-labelledby={id ? `${id}-title` : undefined}>
      <Divider mb="md" />
      <Flex direction={{ base: 'column', sm: 'row' }} gap="sm" justify="space-between" align={{ base: 'stretch', sm: 'flex-start' }}>
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Title order={3} size="h5" id={id ? `${id}-title` : undefined}>{title}</Title>
          {description && (typeof description === 'string' ? <Text size="sm" c="dimmed">{description}</Text> : description)}
        </Stack>
        {actions && <Box style={{ flexShrink: 0, maxWidth: '100%' }}>{actions}</Box>}
      </Flex>
      {children && <Box mt="sm">{children}</Box>}
    </Box>
  );
}
