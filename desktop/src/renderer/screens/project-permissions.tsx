// Project permissions (held by a user, not in a team): the definitions (components/permission-definitions.tsx) and
// the permissions every new user is granted. Granting one to a user is on the user's page.
import { useState } from 'react';
import { Button, Card, Group, MultiSelect, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { PermissionDefinition } from '@gatehouse/shared/client';
import { PermissionDefinitions } from '../components/permission-definitions';
import { showFieldError } from '../components/field-error';
import { useAdminProject } from '../hooks/use-project-context';
import { useProjectPermissionDefinitions } from '../hooks/use-project-permissions';
import { t } from '../messages';

export function ProjectPermissionsScreen() {
  const defs = useProjectPermissionDefinitions();
  return (
    <PermissionDefinitions scope="project" defs={defs}>
      <UserDefaultsCard defs={defs} />
    </PermissionDefinitions>
  );
}

function UserDefaultsCard({ defs }: { defs: PermissionDefinition[] }) {
  const project = useAdminProject();
  const [saving, setSaving] = useState(false);
  const form = useForm({ initialValues: { user: project.config.userDefaultPermissions.map((p) => p.id) } });
  return (
    <Card withBorder padding="lg">
      <form onSubmit={form.onSubmit(async (v) => {
        setSaving(true);
        try {
          await project.update({ config: { userDefaultPermissions: v.user.map((id) => ({ id })) } });
          notifications.show({ color: 'green', message: t('perm.defaultsSaved') });
        } catch (e) {
          showFieldError(form, e, 'user');
        } finally {
          setSaving(false);
        }
      })}>
        <Stack>
          <Title order={2} size="h4">{t('perm.defaults')}</Title>
          <Text size="sm" c="dimmed">{t('pperm.defaultsHelp')}</Text>
          <MultiSelect label={t('pperm.userDefaults')} data={defs.map((d) => d.id)} searchable {...form.getInputProps('user')} />
          <Group justify="flex-end"><Button type="submit" loading={saving} disabled={saving}>{t('common.save')}</Button></Group>
        </Stack>
      </form>
    </Card>
  );
}
