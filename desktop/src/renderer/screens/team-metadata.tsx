// A team's three metadata tiers as JSON editors; text that is not JSON is refused before anything is sent.
import { useState } from 'react';
import { Button, Card, Group, JsonInput, SimpleGrid, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { ReadonlyJson, ServerTeam } from '@gatehouse/shared/client';
import { jsonText, parseJsonText } from '../lib/teams';
import { t, type MessageKey } from '../messages';
import { showFieldError } from '../components/field-error';

const TIERS = [
  { field: 'client', label: 'teams.metadata.client', hint: 'teams.metadata.clientHint' },
  { field: 'clientReadOnly', label: 'teams.metadata.clientReadOnly', hint: 'teams.metadata.clientReadOnlyHint' },
  { field: 'server', label: 'teams.metadata.server', hint: 'teams.metadata.serverHint' },
] as const satisfies readonly { field: string; label: MessageKey; hint: MessageKey }[];

type Values = Record<(typeof TIERS)[number]['field'], string>;

function jsonError(text: string): string | null {
  const parsed = parseJsonText(text);
  return parsed.ok ? null : parsed.text;
}

const valueOf = (text: string) => (parseJsonText(text) as { value: ReadonlyJson }).value;

export function TeamMetadataCard({ team }: { team: ServerTeam }) {
  const [saving, setSaving] = useState(false);
  const form = useForm<Values>({
    initialValues: { client: jsonText(team.clientMetadata), clientReadOnly: jsonText(team.clientReadOnlyMetadata), server: jsonText(team.serverMetadata) },
    validate: { client: jsonError, clientReadOnly: jsonError, server: jsonError },
  });
  return (
    <Card withBorder padding="lg">
      <form noValidate onSubmit={form.onSubmit(async (v) => {
        setSaving(true);
        try {
          await team.update({ clientMetadata: valueOf(v.client), clientReadOnlyMetadata: valueOf(v.clientReadOnly), serverMetadata: valueOf(v.server) });
          notifications.show({ color: 'green', message: t('teams.metadata.saved') });
        } catch (e) {
          showFieldError(form, e, 'client');
        } finally {
          setSaving(false);
        }
      })}>
        <Stack>
          <Title order={2} size="h4">{t('teams.metadata')}</Title>
          <SimpleGrid cols={{ base: 1, md: 3 }}>
            {TIERS.map((tier) => (
              <JsonInput
                key={tier.field}
                label={t(tier.label)}
                description={t(tier.hint)}
                placeholder="{}"
                autosize
                minRows={4}
                maxRows={14}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                {...form.getInputProps(tier.field)}
                // JsonInput shows this instead of the form's error once it has seen invalid text itself (on blur).
                validationError={jsonError(form.values[tier.field])}
              />
            ))}
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" loading={saving} disabled={saving}>{t('common.save')}</Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
