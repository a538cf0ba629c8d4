// A team's members: the list, adding an existing user (found by email, name or id), removing one, and each
// member's permissions (team-member-permissions.tsx).
import { useState } from 'react';
import { Avatar, Button, Card, Group, Modal, Select, Stack, Table, Text, Title, VisuallyHidden, useMatches } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconUserPlus } from '@tabler/icons-react';
import type { ServerTeam, ServerTeamUser } from '@gatehouse/shared/client';
import { ConfirmModal } from '../components/confirm-modal';
import { EmptyState } from '../components/empty-state';
import { useTeamMembers } from '../hooks/use-teams';
import { useUserSearch } from '../hooks/use-user-search';
import { userSearchQuery } from '../lib/palette';
import { memberName } from '../lib/teams';
import { t } from '../messages';
import { MemberPermissionsModal } from './team-member-permissions';
import { ErrorMessage } from '../components/error-message';
import { showFieldError } from '../components/field-error';

export function TeamMembersCard({ team }: { team: ServerTeam }) {
  const members = useTeamMembers(team);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<ServerTeamUser | null>(null);
  const [permissionsOf, setPermissionsOf] = useState<ServerTeamUser | null>(null);
  // On a phone the address wraps and the two buttons stack rather than the list scrolling sideways.
  const membersMinWidth = useMatches({ base: 0, sm: 520 });
  return (
    <Card withBorder padding="lg">
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h4">{t('teams.members')}</Title>
          <Button variant="default" leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>{t('teams.addMember')}</Button>
        </Group>
        {members.length === 0 ? <EmptyState text={t('teams.membersEmpty')} /> : (
          <Table.ScrollContainer minWidth={membersMinWidth}>
            <Table verticalSpacing="xs" aria-label={t('teams.members')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('teams.findUser')}</Table.Th>
                  <Table.Th><VisuallyHidden>{t('projects.actions')}</VisuallyHidden></Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {members.map((m) => (
                  <Table.Tr key={m.id} data-testid={`member-${m.primaryEmail ?? m.id}`}>
                    <Table.Td>
                      <Group gap="sm" wrap="nowrap">
                        <Avatar src={m.teamProfile.profileImageUrl ?? m.profileImageUrl} name={m.teamProfile.displayName ?? m.displayName ?? m.primaryEmail ?? ''} color="indigo" size="sm" alt="" />
                        <div style={{ minWidth: 0 }}>
                          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>{memberName(m)}</Text>
                          {(m.teamProfile.displayName ?? m.displayName) && m.primaryEmail && (
                            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>{m.teamProfile.displayName ?? m.displayName}</Text>
                          )}
                        </div>
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" justify="flex-end">
                        <Button size="xs" variant="default" aria-label={t('teams.permissions', { user: memberName(m) })} onClick={() => setPermissionsOf(m)}>
                          {t('teams.permissionsButton')}
                        </Button>
                        <Button size="xs" variant="subtle" color="red" aria-label={t('teams.removeMember', { user: memberName(m) })} onClick={() => setRemoving(m)}>
                          {t('common.remove')}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      {adding && <AddMemberModal team={team} members={members} onClose={() => setAdding(false)} />}
      {permissionsOf && <MemberPermissionsModal team={team} member={permissionsOf} onClose={() => setPermissionsOf(null)} />}
      {removing && (
        <ConfirmModal
          title={t('teams.removeMemberTitle', { user: memberName(removing) })}
          text={t('teams.removeMemberText')}
          confirmLabel={t('common.remove')}
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await team.removeUser(removing.id);
            notifications.show({ color: 'green', message: t('teams.memberRemoved', { user: memberName(removing) }) });
            setRemoving(null);
          }}
        />
      )}
    </Card>
  );
}

function AddMemberModal({ team, members, onClose }: { team: ServerTeam; members: ServerTeamUser[]; onClose(): void }) {
  // The search text is the picker's own state; the chosen user is the form's value.
  const [search, setSearch] = useState('');
  const [saving, setSaving] = useState(false);
  const form = useForm<{ userId: string | null }>({
    initialValues: { userId: null },
    validate: { userId: (v) => (v ? null : t('common.required')) },
  });
  const found = useUserSearch(userSearchQuery(search));
  const memberIds = new Set(members.map((m) => m.id));
  const options = found.users.filter((u) => !memberIds.has(u.id)).map((u) => ({ value: u.id, label: memberName(u) }));
  return (
    <Modal opened onClose={onClose} title={t('teams.addMemberTitle', { name: team.displayName })}>
      <form noValidate onSubmit={form.onSubmit(async ({ userId }) => {
        if (!userId) return;
        const chosen = found.users.find((u) => u.id === userId);
        setSaving(true);
        try {
          await team.addUser(userId);
          notifications.show({ color: 'green', message: t('teams.memberAdded', { user: chosen ? memberName(chosen) : userId }) });
          onClose();
        } catch (err) {
          showFieldError(form, err, 'userId');
          setSaving(false);
        }
      })}>
        <Stack>
          <Select
            label={t('teams.findUser')}
            placeholder={t('teams.findUserPlaceholder')}
            data-autofocus
            searchable
            searchValue={search}
            onSearchChange={setSearch}
            // The service already matched the query; Select's own filter would hide ids and names it matched.
            filter={({ options: all }) => all}
            data={options}
            {...form.getInputProps('userId')}
            nothingFoundMessage={found.status === 'ok' ? t('teams.findUserNone') : undefined}
            error={form.errors.userId ?? (found.status === 'error' ? <ErrorMessage error={found.error} /> : undefined)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={saving} disabled={saving}>{t('teams.addMember')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
