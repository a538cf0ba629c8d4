// A team's members (client-library §7.7): avatar and name from each member's team profile.
import { Table, Text } from '@mantine/core';
import type { Team } from '@gatehouse/shared/client';
import { useTranslate } from '../context';
import { useTeamMembers } from '../hooks/use-user-data';
import { SettingsSection } from '../widgets/settings-section';
import { AvatarCell, TextCell } from '../widgets/table-cells';
import { SectionBoundary } from './section-boundary';

export function TeamMembers({ team }: { team: Team }) {
  const t = useTranslate();
  // The service lists members only with $read_members; with $invite_members alone the section is shown (§7.7)
  // and its refusal appears in place, not instead of the whole team page.
  return (
    <SettingsSection id="team-members" title={t('settings.team.members')}>
      <SectionBoundary skeleton="table"><MembersTable team={team} /></SectionBoundary>
    </SettingsSection>
  );
}

function MembersTable({ team }: { team: Team }) {
  const t = useTranslate();
  const members = useTeamMembers(team);
  return (
    <Table verticalSpacing="xs" aria-labelledby="team-members-title">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={60}>{t('settings.team.user')}</Table.Th>
          <Table.Th>{t('settings.team.name')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {members.length === 0 && <Table.Tr><Table.Td colSpan={2}><Text size="sm" c="dimmed">{t('settings.team.noMembers')}</Text></Table.Td></Table.Tr>}
        {members.map((m) => (
          <Table.Tr key={m.id} data-testid="team-member-row">
            <AvatarCell user={m.teamProfile} />
            <TextCell dimmed={!m.teamProfile.displayName}>{m.teamProfile.displayName ?? '-'}</TextCell>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
