// Team permissions: the project's team permission definitions (components/permission-definitions.tsx), the system
// permissions (read-only), and the defaults granted to a team's creator and members.
import { useState } from 'react';
import { Button, Card, Group, MultiSelect, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { PermissionDefinition } from '@gatehouse/shared/client';
import { TEAM_SYSTEM_PERMISSIONS } from '@gatehouse/shared/rules/permissions';
import { PermissionDefinitions } from '../components/permission-definitions';
import { useAdminProject } from '../hooks/use-project-context';
import { useTeamPermissionDefinitions } from '../hooks/use-teams';
import { showFieldError } from '../components/field-error';
import { StatusBadge } from '../components/status-badge';
import { t } from '../messages';

export function TeamPermissionsScreen() {
  const defs = useTeamPermissionDefinitions();
  return (
    <PermissionDefinitions scope="team" defs={defs}>
      <DefaultsCard defs={defs} />
      <Card withBorder padding="lg">
        <Stack gap="xs">
          <Title order={2} size="h4">{t('perm.system')}</Title>
          {TEAM_SYSTEM_PERMISSIONS.map((p) => (
            <Group key={p.id} gap="sm" wrap="nowrap">
              <StatusBadge color="gray">{t('perm.systemBadge')}</StatusBadge>
              <Text size="sm" ff="monospace">{p.id}</Text>
              <Text size="sm" c="dimmed">{p.description}</Text>
            </Group>
          ))}
        </Stack>
      </Card>
    </PermissionDefinitions>
  );
}

function DefaultsCard({ defs }: { defs: PermissionDefinition[] }) {
  const project = useAdminProject();
  const [saving, setSaving] = useState(false);
  const form = useForm({
    initialValues: {
      creator: project.config.teamCreatorDefaultPermissions.map((p) => p.id),
      member: project.config.teamMemberDefaultPermissions.map((p) => p.id),
    },
  });
  const ids = defs.map((d) => d.id);
  return (
    <Card withBorder padding="lg">
      <form onSubmit={form.onSubmit(async (v) => {
        setSaving(true);
        try {
          await project.update({ config: { teamCreatorDefaultPermissions: v.creator.map((id) => ({ id })), teamMemberDefaultPermissions: v.member.map((id) => ({ id })) } });
          notifications.show({ color: 'green', message: t('perm.defaultsSaved') });
        } catch (e) {
          showFieldError(form, e, 'creator');
        } finally {
          setSaving(false);
        }
      })}>
        <Stack>
          <Title order={2} size="h4">{t('perm.defaults')}</Title>
          <MultiSelect label={t('perm.creatorDefaults')} data={ids} searchable {...form.getInputProps('creator')} />
          <MultiSelect label={t('perm.memberDefaults')} data={ids} searchable {...form.getInputProps('member')} />
          <Group justify="flex-end"><Button type="submit" loading={saving} disabled={saving}>{t('common.save')}</Button></Group>
        </Stack>
      </form>
    </Card>
  );
}
