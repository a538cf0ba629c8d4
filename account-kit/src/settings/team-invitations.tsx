// Invite member (client-library §7.7) and, with $read_members too, the outstanding invitations; revoking one
// needs $remove_members.
import { useState } from 'react';
import { ActionIcon, Button, Group, Stack, Table, Text, TextInput, VisuallyHidden, useMatches } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconTrash } from '@tabler/icons-react';
import type { Team } from '@gatehouse/shared/client';
import { useTranslate } from '../context';
import { useTeamInvitations } from '../hooks/use-user-data';
import { useRuleValidator } from '../components/use-form-rules';
import { inviteEmailRule } from '../lib/settings-validation';
import { SettingsSection } from '../widgets/settings-section';
import { StackedCell, TextCell } from '../widgets/table-cells';
import { SectionBoundary } from './section-boundary';
import { useSettingsAction } from './settings-actions';

export function TeamInvite({ team, showInvitations, canRevoke }: { team: Team; showInvitations: boolean; canRevoke: boolean }) {
  const t = useTranslate();
  const rule = useRuleValidator();
  const run = useSettingsAction();
  const [busy, setBusy] = useState(false);
  const [invited, setInvited] = useState<string | null>(null);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email: '' },
    validate: { email: rule(inviteEmailRule) },
    onValuesChange: () => setInvited(null),
  });
  return (
    <SettingsSection id="team-invite" title={t('settings.team.invite')} description={t('settings.team.inviteDescription')}>
      <Stack gap="md">
        <form noValidate onSubmit={form.onSubmit(async ({ email }) => {
          setBusy(true);
          const ok = await run(() => team.inviteUser({ email: email.trim() }));
          setBusy(false);
          // The field is ready for the next address; the invitation itself shows in the table below at once.
          if (ok) {
            form.reset();
            setInvited(email.trim());
          }
        })}>
          <Group gap="xs" align="flex-start" wrap="wrap">
            <TextInput aria-label={t('settings.team.inviteLabel')} placeholder={t('settings.team.invitePlaceholder')} type="email" style={{ flex: '1 1 220px' }} {...form.getInputProps('email')} key={form.key('email')} />
            <Button type="submit" size="sm" loading={busy}>{t('settings.team.inviteSubmit')}</Button>
          </Group>
          {invited && <Text size="sm" mt="xs" role="status">{t('settings.team.invited', { email: invited })}</Text>}
        </form>
        {showInvitations && <SectionBoundary skeleton="table"><Invitations team={team} canRevoke={canRevoke} /></SectionBoundary>}
      </Stack>
    </SettingsSection>
  );
}

function Invitations({ team, canRevoke }: { team: Team; canRevoke: boolean }) {
  const t = useTranslate();
  const run = useSettingsAction();
  const invitations = useTeamInvitations(team);
  // On a phone the expiry folds under the address instead of scrolling sideways.
  const tableMinWidth = useMatches({ base: 0, sm: 360 });
  return (
    <Table.ScrollContainer minWidth={tableMinWidth}>
      <Table verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('settings.team.invitations')}</Table.Th>
            <Table.Th visibleFrom="sm">{t('settings.team.expires')}</Table.Th>
            {canRevoke && <Table.Th w={60}><VisuallyHidden>{t('settings.actions')}</VisuallyHidden></Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {invitations.length === 0 && <Table.Tr><Table.Td colSpan={canRevoke ? 3 : 2}><Text size="sm" c="dimmed">{t('settings.team.noInvitations')}</Text></Table.Td></Table.Tr>}
          {invitations.map((inv) => (
            <Table.Tr key={inv.id} data-testid="invitation-row">
              <StackedCell
                main={<Text size="sm" style={{ overflowWrap: 'anywhere' }}>{inv.recipientEmail ?? '-'}</Text>}
                sub={<Text span inherit hiddenFrom="sm">{t('settings.team.expires')}: {inv.expiresAt.toLocaleString()}</Text>}
              />
              <TextCell visibleFrom="sm">{inv.expiresAt.toLocaleString()}</TextCell>
              {canRevoke && (
                <Table.Td ta="right">
                  <ActionIcon variant="subtle" color="red" aria-label={t('settings.team.revokeInvitation', { email: inv.recipientEmail ?? '' })} onClick={() => void run(() => inv.revoke())}>
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
