// The Enterprise SSO tab's SCIM provisioning: the base URL and tokens for the identity provider (a new token shown
// once), and the groups it pushed, each granting the team permissions chosen here.
import { useState } from 'react';
import { Alert, Button, Card, Group, Modal, MultiSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconKey, IconPlus } from '@tabler/icons-react';
import type { ScimGroup, ScimToken, ServerTeam } from '@gatehouse/shared/client';
import { ConfirmModal } from '../components/confirm-modal';
import { CopyField } from '../components/copy-field';
import { EmptyState } from '../components/empty-state';
import { showFieldError } from '../components/field-error';
import { runAction } from '../components/notify';
import { useProjectContext } from '../hooks/use-project-context';
import { useScimGroups, useScimTokens } from '../hooks/use-team-enterprise';
import { useTeamPermissionDefinitions } from '../hooks/use-teams';
import { AddScimGroupModal } from './team-scim-group-add';
import { formatDateTime } from '../lib/format';
import { scimBaseUrl } from '../lib/team-enterprise';
import { t } from '../messages';

export function TeamScimCard({ team }: { team: ServerTeam }) {
  const { connection } = useProjectContext();
  const tokens = useScimTokens(team);
  const groups = useScimGroups(team);
  const [creating, setCreating] = useState(false);
  const [addingGroup, setAddingGroup] = useState(false);
  return (
    <Card withBorder padding="lg" component="section" aria-label={t('enterprise.scim')}>
      <Stack>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h4">{t('enterprise.scim')}</Title>
          <Button variant="default" leftSection={<IconKey size={16} aria-hidden />} onClick={() => setCreating(true)}>{t('enterprise.createToken')}</Button>
        </Group>
        <Text size="sm" c="dimmed">{t('enterprise.scimIntro')}</Text>
        <CopyField label={t('enterprise.scimBaseUrl')} value={scimBaseUrl(connection.serviceUrl, team.id)} />
        {tokens.length === 0 ? <EmptyState text={t('enterprise.tokensEmpty')} /> : tokens.map((tok) => <TokenRow key={tok.id} token={tok} />)}
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={3} size="h5">{t('enterprise.groups')}</Title>
          <Button size="xs" variant="default" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => setAddingGroup(true)}>{t('enterprise.addGroup')}</Button>
        </Group>
        {groups.length === 0 ? <EmptyState text={t('enterprise.groupsEmpty')} /> : groups.map((g) => <GroupRow key={g.id} group={g} />)}
      </Stack>
      {creating && <CreateTokenModal team={team} onClose={() => setCreating(false)} />}
      {addingGroup && <AddScimGroupModal team={team} onClose={() => setAddingGroup(false)} />}
    </Card>
  );
}

function TokenRow({ token }: { token: ScimToken }) {
  const [revoking, setRevoking] = useState(false);
  const name = token.description || t('enterprise.untitled');
  return (
    <Group justify="space-between" wrap="wrap" gap="xs" data-testid={`scim-token-${token.description}`}>
      <Stack gap={0}>
        <Text size="sm" fw={600}>{name}</Text>
        <Text size="xs" c="dimmed">
          {t('enterprise.tokenCreated', { date: formatDateTime(token.createdAt) })} · {token.lastUsedAt ? t('enterprise.tokenLastUsed', { date: formatDateTime(token.lastUsedAt) }) : t('enterprise.tokenNeverUsed')}
        </Text>
      </Stack>
      <Button size="xs" variant="subtle" color="red" aria-label={t('enterprise.revokeToken', { name })} onClick={() => setRevoking(true)}>{t('teams.revokeButton')}</Button>
      {revoking && (
        <ConfirmModal
          title={t('enterprise.revokeToken', { name })}
          text={t('enterprise.revokeTokenText')}
          confirmLabel={t('teams.revokeButton')}
          onClose={() => setRevoking(false)}
          onConfirm={async () => { await token.revoke(); setRevoking(false); }}
        />
      )}
    </Group>
  );
}

function GroupRow({ group }: { group: ScimGroup }) {
  const definitions = useTeamPermissionDefinitions();
  const [value, setValue] = useState<string[]>([...group.permissionIds]);
  const changed = value.join('\u0000') !== group.permissionIds.join('\u0000');
  return (
    <Stack gap={6} data-testid={`scim-group-${group.displayName}`}>
      <Group gap="sm"><Text size="sm" fw={600}>{group.displayName}</Text><Text size="xs" c="dimmed">{t('enterprise.groupMembers', { count: group.memberCount })}</Text></Group>
      <Group align="flex-end" wrap="wrap" gap="sm">
        <MultiSelect
          label={t('enterprise.groupPermissions', { group: group.displayName })}
          data={definitions.map((d) => d.id)}
          value={value}
          onChange={setValue}
          searchable
          style={{ flex: '1 1 240px' }}
        />
        <Button disabled={!changed} onClick={() => void runAction(() => group.setPermissions(value), t('enterprise.groupPermissionsSaved', { group: group.displayName }))}>{t('common.save')}</Button>
      </Group>
    </Stack>
  );
}

function CreateTokenModal({ team, onClose }: { team: ServerTeam; onClose(): void }) {
  const [saving, setSaving] = useState(false);
  const [created, setCreated] = useState<{ token: string; scimBaseUrl: string } | null>(null);
  const form = useForm({ initialValues: { description: '' } });
  return (
    <Modal opened onClose={onClose} title={created ? t('enterprise.tokenCreatedTitle') : t('enterprise.createToken')}>
      {created ? (
        <Stack>
          <Alert color="yellow">{t('enterprise.tokenCreatedText')}</Alert>
          <CopyField label={t('enterprise.scimBaseUrl')} value={created.scimBaseUrl} />
          <CopyField label={t('enterprise.token')} value={created.token} testId="new-scim-token" />
          <Group justify="flex-end"><Button onClick={onClose}>{t('common.close')}</Button></Group>
        </Stack>
      ) : (
        <form noValidate onSubmit={form.onSubmit(async (v) => {
          setSaving(true);
          try {
            setCreated(await team.enterprise.createScimToken({ description: v.description.trim() || undefined }));
          } catch (e) {
            showFieldError(form, e, 'description');
          } finally {
            setSaving(false);
          }
        })}>
          <Stack>
            <TextInput label={t('enterprise.tokenDescription')} placeholder={t('enterprise.tokenDescriptionPlaceholder')} data-autofocus {...form.getInputProps('description')} />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
              <Button type="submit" loading={saving} disabled={saving}>{t('enterprise.createToken')}</Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
