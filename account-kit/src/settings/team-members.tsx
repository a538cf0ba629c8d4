// A team's members (client-library §7.7): avatar, display name (else the primary email the service tells a member
// who may read members), "(you)", each member's team permissions read-only (granting is a server's action), and,
// for a viewer holding $remove_members, Remove with a confirmation (issue 25).
import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, Modal, Stack, Table, Text, VisuallyHidden, useMatches } from '@mantine/core';
import { IconUserMinus } from '@tabler/icons-react';
import type { CurrentUser, Team, TeamUser } from '@gatehouse/shared/client';
import { useTranslate } from '../context';
import { useTeamMembers } from '../hooks/use-user-data';
import { memberName } from '../lib/team-members';
import { SettingsSection } from '../widgets/settings-section';
import { AvatarCell } from '../widgets/table-cells';
import { TruncatedText } from '../widgets/truncated-text';
import { SectionBoundary } from './section-boundary';
import { useSettingsAction } from './settings-actions';

export function TeamMembers({ team, user, canRead, canRemove }: { team: Team; user: CurrentUser; canRead: boolean; canRemove: boolean }) {
  const t = useTranslate();
  // The service lists members only with $read_members; with $invite_members alone the section is shown (§7.7) and
  // says so in place, without asking for a list the service would refuse (a refusal caught by the section's
  // boundary is still an error React reports on the console).
  return (
    <SettingsSection id="team-members" title={t('settings.team.members')}>
      {canRead
        ? <SectionBoundary skeleton="table"><MembersTable team={team} viewerId={user.id} canRemove={canRemove} /></SectionBoundary>
        : <Text size="sm" c="dimmed" data-testid="members-need-permission">{t('settings.team.membersNeedPermission')}</Text>}
    </SettingsSection>
  );
}

function Permissions({ ids }: { ids: readonly string[] }) {
  const t = useTranslate();
  if (ids.length === 0) return <Text size="xs" c="dimmed">{t('settings.team.noPermissions')}</Text>;
  return <Group gap={4}>{ids.map((id) => <Badge key={id} size="sm" variant="light" color="gray" tt="none">{id}</Badge>)}</Group>;
}

function MembersTable({ team, viewerId, canRemove }: { team: Team; viewerId: string; canRemove: boolean }) {
  const t = useTranslate();
  const members = useTeamMembers(team);
  const [removing, setRemoving] = useState<TeamUser | null>(null);
  // On a phone the permissions fold under the name instead of scrolling sideways.
  const tableMinWidth = useMatches({ base: 0, sm: 480 });
  const columns = canRemove ? 4 : 3;
  return (
    <>
      <Table.ScrollContainer minWidth={tableMinWidth}>
        <Table verticalSpacing="xs" aria-labelledby="team-members-title" layout="fixed">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={52}>{t('settings.team.user')}</Table.Th>
              <Table.Th>{t('settings.team.name')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('settings.team.permissions')}</Table.Th>
              {canRemove && <Table.Th w={52}><VisuallyHidden>{t('settings.actions')}</VisuallyHidden></Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.length === 0 && <Table.Tr><Table.Td colSpan={columns}><Text size="sm" c="dimmed">{t('settings.team.noMembers')}</Text></Table.Td></Table.Tr>}
            {members.map((m) => {
              const name = memberName(m) ?? t('settings.team.unnamedMember');
              const you = m.id === viewerId;
              return (
                <Table.Tr key={m.id} data-testid="team-member-row">
                  <AvatarCell user={{ displayName: m.teamProfile.displayName, primaryEmail: m.primaryEmail, profileImageUrl: m.teamProfile.profileImageUrl }} />
                  <Table.Td>
                    <Stack gap={4}>
                      <Group gap={6} wrap="nowrap">
                        <TruncatedText size="sm" fw={500} c={memberName(m) ? undefined : 'dimmed'}>{name}</TruncatedText>
                        {you && <Text span size="sm" c="dimmed" style={{ flexShrink: 0 }}>{t('settings.team.you')}</Text>}
                      </Group>
                      {m.teamProfile.displayName && m.primaryEmail && <TruncatedText size="xs" c="dimmed">{m.primaryEmail}</TruncatedText>}
                      <Stack hiddenFrom="sm" gap={2}><Permissions ids={m.teamPermissionIds} /></Stack>
                    </Stack>
                  </Table.Td>
                  <Table.Td visibleFrom="sm"><Permissions ids={m.teamPermissionIds} /></Table.Td>
                  {canRemove && (
                    <Table.Td ta="right">
                      {!you && (
                        <ActionIcon variant="subtle" color="red" aria-label={t('settings.team.removeMember', { name })} onClick={() => setRemoving(m)}>
                          <IconUserMinus size={16} aria-hidden />
                        </ActionIcon>
                      )}
                    </Table.Td>
                  )}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <RemoveMember team={team} member={removing} onClose={() => setRemoving(null)} />
    </>
  );
}

function RemoveMember({ team, member, onClose }: { team: Team; member: TeamUser | null; onClose: () => void }) {
  const t = useTranslate();
  const run = useSettingsAction();
  const [busy, setBusy] = useState(false);
  const name = member ? memberName(member) ?? t('settings.team.unnamedMember') : '';
  const remove = async () => {
    if (!member) return;
    setBusy(true);
    await run(() => team.removeUser(member.id));
    setBusy(false);
    onClose();
  };
  return (
    <Modal opened={!!member} onClose={onClose} title={t('settings.team.removeTitle')} centered closeButtonProps={{ 'aria-label': t('common.close') }}>
      <Stack>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{t('settings.team.removeConfirm', { name, team: team.displayName })}</Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose} disabled={busy}>{t('settings.cancel')}</Button>
          <Button color="red" loading={busy} onClick={() => void remove()} data-autofocus>{t('settings.team.removeSubmit')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
