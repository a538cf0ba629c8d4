// Permission definitions of one scope (team or project): the table with what each contains (as a tree), the
// create/edit form and the delete confirmation. The Team permissions and Project permissions screens share them; each
// adds its own defaults (and the team screen its system permissions).
import { useState } from 'react';
import { Button, Card, Group, List, Modal, MultiSelect, Stack, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import type { PermissionDefinition } from '@gatehouse/shared/client';
import { ConfirmModal } from './confirm-modal';
import { EmptyState } from './empty-state';
import { ScreenHeader } from './screen-header';
import { showFieldError } from './field-error';
import { useProjectContext } from '../hooks/use-project-context';
import { containmentTree, customDefinitions, validatePermission, type PermissionFormValues, type TreeNode } from '../lib/team-permissions';
import { t, type MessageKey } from '../messages';

export type PermissionScope = 'team' | 'project';

/** The texts that differ between the scopes. */
const TEXTS: Record<PermissionScope, { title: MessageKey; createTitle: MessageKey; deleteText: MessageKey }> = {
  team: { title: 'perm.title', createTitle: 'perm.createTitle', deleteText: 'perm.deleteText' },
  project: { title: 'pperm.title', createTitle: 'pperm.createTitle', deleteText: 'pperm.deleteText' },
};

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

/** The screen's header, the definitions' table and its dialogs; `children` come after the table. */
export function PermissionDefinitions({ scope, defs, children }: { scope: PermissionScope; defs: PermissionDefinition[]; children?: React.ReactNode }) {
  const custom = customDefinitions(defs);
  const [editing, setEditing] = useState<PermissionDefinition | 'new' | null>(null);
  const [deleting, setDeleting] = useState<PermissionDefinition | null>(null);
  const title = t(TEXTS[scope].title);
  return (
    <Stack gap="lg">
      <ScreenHeader title={title}>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>{t('perm.create')}</Button>
      </ScreenHeader>
      {custom.length === 0 ? <EmptyState text={t('perm.empty')} /> : (
        <Card withBorder padding={0}>
          <Table verticalSpacing="sm" horizontalSpacing="md" aria-label={title}>
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
      {children}
      {editing && <PermissionModal scope={scope} defs={defs} editing={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {deleting && <DeletePermissionModal scope={scope} definition={deleting} onClose={() => setDeleting(null)} />}
    </Stack>
  );
}

function PermissionModal({ scope, defs, editing, onClose }: { scope: PermissionScope; defs: PermissionDefinition[]; editing: PermissionDefinition | null; onClose(): void }) {
  const { app } = useProjectContext();
  const [saving, setSaving] = useState(false);
  const form = useForm<PermissionFormValues>({
    initialValues: { id: editing?.id ?? '', description: editing?.description ?? '', contains: [...(editing?.containedPermissionIds ?? [])] },
    validate: (v) => validatePermission(v, defs, editing?.id ?? null, t('perm.cycle')),
  });
  const choices = defs.map((d) => d.id).filter((id) => id !== (editing?.id ?? form.values.id.trim()));
  return (
    <Modal opened onClose={onClose} title={editing ? t('perm.editTitle', { id: editing.id }) : t(TEXTS[scope].createTitle)}>
      <form noValidate onSubmit={form.onSubmit(async (v) => {
        setSaving(true);
        const body = { id: v.id.trim(), description: v.description.trim() || undefined, containedPermissionIds: v.contains };
        try {
          if (scope === 'team') {
            if (editing) await app.updateTeamPermissionDefinition(editing.id, body);
            else await app.createTeamPermissionDefinition(body);
          } else if (editing) await app.updateProjectPermissionDefinition(editing.id, body);
          else await app.createProjectPermissionDefinition(body);
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

function DeletePermissionModal({ scope, definition, onClose }: { scope: PermissionScope; definition: PermissionDefinition; onClose(): void }) {
  const { app } = useProjectContext();
  return (
    <ConfirmModal
      title={t('perm.deleteTitle', { id: definition.id })}
      text={t(TEXTS[scope].deleteText)}
      confirmLabel={t('common.delete')}
      onClose={onClose}
      onConfirm={async () => {
        if (scope === 'team') await app.deleteTeamPermissionDefinition(definition.id);
        else await app.deleteProjectPermissionDefinition(definition.id);
        notifications.show({ color: 'green', message: t('perm.deleted') });
        onClose();
      }}
    />
  );
}
