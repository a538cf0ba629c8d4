// Team permissions: the project's definitions with what each contains (as a tree), create/edit/delete, the system
// permissions (read-only), and the defaults granted to a team's creator and members.
import { useState } from 'react';
import { Button, Card, Group, List, Modal, MultiSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import type { PermissionDefinition } from '@gatehouse/shared/client';
import { TEAM_SYSTEM_PERMISSIONS } from '@gatehouse/shared/rules/permissions';
import { ConfirmModal } from '../components/confirm-modal';
import { EmptyState } from '../components/empty-state';
import { ScreenHeader } from '../components/screen-header';
import { useAdminProject, useProjectContext } from '../hooks/use-project-context';
import { useTeamPermissionDefinitions } from '../hooks/use-teams';
import { showFieldError } from '../components/field-error';
import { containmentTree, customDefinitions, validatePermission, type PermissionFormValues, type TreeNode } from '../lib/team-permissions';
import { StatusBadge } from '../components/status-badge';
import { t } from '../messages';

function Tree({ nodes }: { nodes: TreeNode[] }) {
  if (nodes.length === 0) return null;
  return (
    <List size="sm" withPadding listStyleType="disc">
      {nodes.map((n) => (
        <List.Item key={n.id}>
          <Text span size="sm" ff="monospace">{n.id}</Text>
          <Tree nodes={n.children} />
        </List.Item>
      ))}
    </List>
  );
}

export function TeamPermissionsScreen() {
  const { app } = useProjectContext();
  const defs = useTeamPermissionDefinitions();
  const custom = customDefinitions(defs);
  const [editing, setEditing] = useState<PermissionDefinition | 'new' | null>(null);
  const [deleting, setDeleting] = useState<PermissionDefinition | null>(null);
  return (
    <Stack gap="lg">
      <ScreenHeader title={t('perm.title')}>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>{t('perm.create')}</Button>
      </ScreenHeader>
      {custom.length === 0 ? <EmptyState text={t('perm.empty')} /> : (
        <Card withBorder padding={0}>
          <Table verticalSpacing="sm" horizontalSpacing="md" aria-label={t('perm.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('perm.id')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('perm.description')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('perm.contains')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {custom.map((d) => (
                <Table.Tr key={d.id} data-testid={`permission-${d.id}`}>
                  <Table.Td>
                    <Text ff="monospace" fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>{d.id}</Text>
                    {/* A phone has no room for three columns: the description and what it contains go under the id. */}
                    <Stack gap={4} mt={4} hiddenFrom="sm">
                      <Text size="sm">{d.description}</Text>
                      <Tree nodes={containmentTree(d.id, defs)} />
                    </Stack>
                  </Table.Td>
                  <Table.Td visibleFrom="sm"><Text size="sm">{d.description}</Text></Table.Td>
                  <Table.Td visibleFrom="sm"><Tree nodes={containmentTree(d.id, defs)} /></Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end">
                      <Button size="xs" variant="default" onClick={() => setEditing(d)} aria-label={`${t('common.edit')} ${d.id}`}>{t('common.edit')}</Button>
                      <Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(d)} aria-label={`${t('common.delete')} ${d.id}`}>{t('common.delete')}</Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      )}
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
      {editing && <PermissionModal defs={defs} editing={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {deleting && <DeletePermissionModal definition={deleting} onClose={() => setDeleting(null)} />}
    </Stack>
  );
}

function PermissionModal({ defs, editing, onClose }: { defs: PermissionDefinition[]; editing: PermissionDefinition | null; onClose(): void }) {
  const { app } = useProjectContext();
  const [saving, setSaving] = useState(false);
  const form = useForm<PermissionFormValues>({
    initialValues: { id: editing?.id ?? '', description: editing?.description ?? '', contains: [...(editing?.containedPermissionIds ?? [])] },
    validate: (v) => validatePermission(v, defs, editing?.id ?? null, t('perm.cycle')),
  });
  const choices = defs.map((d) => d.id).filter((id) => id !== (editing?.id ?? form.values.id.trim()));
  return (
    <Modal opened onClose={onClose} title={editing ? t('perm.editTitle', { id: editing.id }) : t('perm.createTitle')}>
      <form noValidate onSubmit={form.onSubmit(async (v) => {
        setSaving(true);
        const body = { id: v.id.trim(), description: v.description.trim() || undefined, containedPermissionIds: v.contains };
        try {
          if (editing) await app.updateTeamPermissionDefinition(editing.id, body);
          else await app.createTeamPermissionDefinition(body);
          notifications.show({ color: 'green', message: t('perm.saved') });
          onClose();
        } catch (e) {
          showFieldError(form, e, 'id', [
            { field: 'id', codes: ['PERMISSION_ID_ALREADY_EXISTS'] },
            { field: 'contains', codes: ['CONTAINED_PERMISSION_NOT_FOUND'] },
            { field: 'contains', schemaPath: /contain|system|cycle/i },
            { field: 'id', schemaPath: /lowercase|id/ },
          ]);
        } finally {
          setSaving(false);
        }
      })}>
        <Stack>
          <TextInput label={t('perm.id')} data-autofocus {...form.getInputProps('id')} />
          <TextInput label={t('perm.description')} {...form.getInputProps('description')} />
          <MultiSelect label={t('perm.contains')} data={choices} searchable clearable {...form.getInputProps('contains')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={saving} disabled={saving}>{t('common.save')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function DeletePermissionModal({ definition, onClose }: { definition: PermissionDefinition; onClose(): void }) {
  const { app } = useProjectContext();
  return (
    <ConfirmModal
      title={t('perm.deleteTitle', { id: definition.id })}
      text={t('perm.deleteText')}
      confirmLabel={t('common.delete')}
      onClose={onClose}
      onConfirm={async () => {
        await app.deleteTeamPermissionDefinition(definition.id);
        notifications.show({ color: 'green', message: t('perm.deleted') });
        onClose();
      }}
    />
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
