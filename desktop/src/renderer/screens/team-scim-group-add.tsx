// "Add group" on the Enterprise SSO tab: an owner names a group of the identity provider before SCIM pushes it, and
// chooses the team permissions it grants, so an SSO `groups` claim of that name grants them from the first sign-in.
import { useState } from 'react';
import { Button, Group, Modal, MultiSelect, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { ServerTeam } from '@gatehouse/shared/client';
import { showFieldError } from '../components/field-error';
import { useTeamPermissionDefinitions } from '../hooks/use-teams';
import { t } from '../messages';

export function AddScimGroupModal({ team, onClose }: { team: ServerTeam; onClose(): void }) {
  const definitions = useTeamPermissionDefinitions();
  const [saving, setSaving] = useState(false);
  const form = useForm({
    initialValues: { name: '', permissionIds: [] as string[] },
    validate: { name: (v) => (v.trim() === '' ? t('enterprise.groupNameRequired') : null) },
  });
  return (
    <Modal opened onClose={onClose} title={t('enterprise.addGroup')}>
      <form noValidate onSubmit={form.onSubmit(async (v) => {
        setSaving(true);
        try {
          const name = v.name.trim();
          await team.enterprise.createScimGroup(name, v.permissionIds);
          notifications.show({ color: 'green', message: t('enterprise.groupAdded', { group: name }) });
          onClose();
        } catch (e) {
          showFieldError(form, e, 'name');
        } finally {
          setSaving(false);
        }
      })}>
        <Stack>
          <TextInput label={t('enterprise.groupName')} description={t('enterprise.groupNameHint')} placeholder={t('enterprise.groupNamePlaceholder')} data-autofocus {...form.getInputProps('name')} />
          <MultiSelect label={t('enterprise.groupNewPermissions')} data={definitions.map((d) => d.id)} searchable comboboxProps={{ withinPortal: true }} {...form.getInputProps('permissionIds')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={saving} disabled={saving}>{t('enterprise.addGroup')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
