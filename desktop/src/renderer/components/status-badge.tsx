// A state shown as a coloured dot and a word (the word carries the meaning, so the colour needs no contrast rule
// and the text keeps the theme's readable colour in light and dark).
import { Box, Group, Text } from '@mantine/core';

export function StatusBadge({ color, children, size = 'sm' }: { color: string; children: string; size?: 'xs' | 'sm' }) {
  return (
    <Group gap={6} wrap="nowrap" style={{ whiteSpace: 'nowrap' }} data-status={color}>
      <Box w={8} h={8} bg={`var(--mantine-color-${color}-6)`} style={{ borderRadius: '50%', flexShrink: 0 }} aria-hidden />
      <Text size={size} fw={600}>{children}</Text>
    </Group>
  );
}
