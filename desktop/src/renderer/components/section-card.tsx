// A titled card that is one section of a page (a user's profile, metadata, sessions...), labelled by its title.
import { Card, Stack, Title } from '@mantine/core';

export function SectionCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card withBorder component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={2} size="h4">{title}</Title>
        {children}
      </Stack>
    </Card>
  );
}
