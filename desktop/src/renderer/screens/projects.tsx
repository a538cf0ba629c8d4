// Projects: the owner's projects (name, id, users, created, mode), create one, open one, delete one behind a
// confirmation that asks for its name.
import { useState } from 'react';
import { Button, Group, Modal, Stack, Switch, Table, Text, TextInput, Textarea, VisuallyHidden, useMatches } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import type { AdminOwnedProject, CurrentInternalUser, CurrentUser } from '@gatehouse/shared/client';
import { ProjectUpdate } from '@gatehouse/shared/schemas/projects';
import { adminProjectUpdateToWire } from '@gatehouse/shared/client/models/projects';
import { useOwnedProjects, useRefetchOwnedProjects } from '../hooks/use-owned-projects';
import type { SavedConnection } from '../../shared/bridge';
import { EmptyState } from '../components/empty-state';
import { ScreenHeader } from '../components/screen-header';
import { navigate } from '../hooks/use-route';
import { formatDate } from '../lib/format';
import { formErrors, schemaProblems } from '../lib/schema-check';
import { showFieldError } from '../components/field-error';
import { StatusBadge } from '../components/status-badge';
import { t } from '../messages';
import { ErrorMessage } from '../components/error-message';

export function ProjectsScreen({ user, connection }: { user: CurrentUser; connection: SavedConnection }) {
  const owner = user as CurrentInternalUser;
  // Counts and names change on other screens; the list is read afresh each time it is shown.
  const projects = useOwnedProjects(user, { fresh: true });
  const refetch = useRefetchOwnedProjects(user);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<AdminOwnedProject | null>(null);
  // On a phone the id, users, date and mode go under the name: six columns scrolled sideways at 390 px.
  const minWidth = useMatches({ base: 0, sm: 760 });
  const open = (p: AdminOwnedProject) => navigate({ name: 'project', connectionId: connection.id, projectId: p.id, screen: 'overview' });

  return (
    <Stack>
      <ScreenHeader title={t('projects.title')}>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>{t('projects.create')}</Button>
      </ScreenHeader>
      {projects.length === 0 ? <EmptyState text={t('projects.empty')} /> : (
        <Table.ScrollContainer minWidth={minWidth}>
          <Table striped highlightOnHover verticalSpacing="sm" aria-label={t('projects.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('projects.name')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('projects.id')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('projects.users')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('projects.created')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('projects.mode')}</Table.Th>
                <Table.Th><VisuallyHidden>{t('projects.actions')}</VisuallyHidden></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {projects.map((p) => (
                <Table.Tr key={p.id} data-testid="project-row">
                  <Table.Td>
                    <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>{p.displayName}</Text>
                    <Stack gap={2} mt={4} hiddenFrom="sm" align="flex-start">
                      <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>{p.id}</Text>
                      <Text size="xs" c="dimmed">{t('projects.users')}: {p.userCount} · {t('projects.created')}: {formatDate(p.createdAt)}</Text>
                      <StatusBadge color={p.isProductionMode ? 'green' : 'gray'}>{t(p.isProductionMode ? 'projects.production' : 'projects.development')}</StatusBadge>
                    </Stack>
                  </Table.Td>
                  <Table.Td visibleFrom="sm"><Text size="sm" ff="monospace">{p.id}</Text></Table.Td>
                  <Table.Td visibleFrom="sm">{p.userCount}</Table.Td>
                  <Table.Td visibleFrom="sm">{formatDate(p.createdAt)}</Table.Td>
                  <Table.Td visibleFrom="sm">
                    <StatusBadge color={p.isProductionMode ? 'green' : 'gray'}>{t(p.isProductionMode ? 'projects.production' : 'projects.development')}</StatusBadge>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end">
                      <Button size="xs" onClick={() => open(p)} aria-label={`${t('common.open')} ${p.displayName}`}>{t('common.open')}</Button>
                      <Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(p)} aria-label={`${t('common.delete')} ${p.displayName}`}>{t('common.delete')}</Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <CreateProjectModal opened={creating} onClose={() => setCreating(false)} owner={owner} onCreated={open} />
      <DeleteProjectModal project={deleting} onClose={() => setDeleting(null)} onDeleted={() => void refetch()} />
    </Stack>
  );
}

const SWITCHES = [
  ['signUpEnabled', 'config.signUpEnabled'],
  ['credentialEnabled', 'config.credentialEnabled'],
  ['magicLinkEnabled', 'config.magicLinkEnabled'],
  ['passkeyEnabled', 'config.passkeyEnabled'],
  ['allowLocalhost', 'config.allowLocalhost'],
] as const;

function CreateProjectModal({ opened, onClose, owner, onCreated }: { opened: boolean; onClose(): void; owner: CurrentInternalUser; onCreated(p: AdminOwnedProject): void }) {
  const [saving, setSaving] = useState(false);
  const form = useForm({
    initialValues: { displayName: '', description: '', signUpEnabled: true, credentialEnabled: true, magicLinkEnabled: false, passkeyEnabled: false, allowLocalhost: true },
    validate: (v) => {
      const errors = formErrors(schemaProblems(ProjectUpdate, adminProjectUpdateToWire(toOptions(v))), { '/display_name': 'displayName', '/description': 'description' });
      if (!v.displayName.trim()) errors.displayName = t('projects.nameRequired');
      return errors;
    },
  });
  const toOptions = (v: typeof form.values) => ({
    displayName: v.displayName.trim(),
    description: v.description.trim() || undefined,
    config: { signUpEnabled: v.signUpEnabled, credentialEnabled: v.credentialEnabled, magicLinkEnabled: v.magicLinkEnabled, passkeyEnabled: v.passkeyEnabled, allowLocalhost: v.allowLocalhost },
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('projects.create')}>
      <form onSubmit={form.onSubmit(async (v) => {
        setSaving(true);
        try {
          const project = await owner.createProject(toOptions(v));
          notifications.show({ color: 'green', message: t('projects.created.toast', { name: project.displayName }) });
          form.reset();
          onClose();
          onCreated(project);
        } catch (e) {
          showFieldError(form, e, 'displayName', [{ field: 'displayName', schemaPath: /display_name/ }, { field: 'description', schemaPath: /description/ }]);
        } finally {
          setSaving(false);
        }
      })}>
        <Stack>
          <TextInput label={t('projects.name')} data-autofocus {...form.getInputProps('displayName')} />
          <Textarea label={t('projects.description')} autosize minRows={2} {...form.getInputProps('description')} />
          {SWITCHES.map(([field, label]) => <Switch key={field} label={t(label)} {...form.getInputProps(field, { type: 'checkbox' })} />)}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={saving} disabled={saving}>{t('projects.create')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function DeleteProjectModal({ project, onClose, onDeleted }: { project: AdminOwnedProject | null; onClose(): void; onDeleted(): void }) {
  const [typed, setTyped] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const matches = !!project && typed === project.displayName;
  const close = () => {
    setTyped('');
    setError(null);
    onClose();
  };
  return (
    <Modal opened={!!project} onClose={close} title={project ? t('projects.deleteTitle', { name: project.displayName }) : ''}>
      <Stack>
        <Text size="sm">{t('projects.deleteText')}</Text>
        <TextInput label={t('projects.deleteConfirmLabel')} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} error={error !== null ? <ErrorMessage error={error} /> : typed && !matches ? t('projects.deleteMismatch') : null} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>{t('common.cancel')}</Button>
          <Button color="red.9" disabled={!matches || saving} loading={saving} onClick={async () => {
            if (!project) return;
            setSaving(true);
            try {
              await project.delete();
              notifications.show({ color: 'green', message: t('projects.deleted', { name: project.displayName }) });
              onDeleted();
              close();
            } catch (e) {
              setError(e);
            } finally {
              setSaving(false);
            }
          }}>{t('common.delete')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
