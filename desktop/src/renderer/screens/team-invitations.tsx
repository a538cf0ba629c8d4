// A team's pending invitations: send one by email (the link leads to the project's invitation page), revoke one.
import { useState } from 'react';
import { Button, Card, Group, Modal, Stack, Table, Text, TextInput, Title, VisuallyHidden, useMatches } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconMailPlus } from '@tabler/icons-react';
import type { ServerTeam, TeamInvitation } from '@gatehouse/shared/client';
import { isValidEmail } from '@gatehouse/shared/rules/email';
import { ConfirmModal } from '../components/confirm-modal';
import { EmptyState } from '../components/empty-state';
import { useAdminProject, useProjectContext } from '../hooks/use-project-context';
import { useTeamInvitations } from '../hooks/use-teams';
import { formatDateTime } from '../lib/format';
import { showFieldError } from '../components/field-error';
import { invitationCallbackUrl } from '../lib/teams';
import { t } from '../messages';

export function TeamInvitationsCard({ team }: { team: ServerTeam }) {
  const invitations = useTeamInvitations(team);
  const [inviting, setInviting] = useState(false);
  const [revoking, setRevoking] = useState<TeamInvitation | null>(null);
  // On a phone the expiry goes under the address (one column and the button) rather than scrolling sideways.
  const invitationsMinWidth = useMatches({ base: 0, sm: 480 });
  return (
    <Card withBorder padding="lg">
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h4">{t('teams.invitations')}</Title>
          <Button variant="default" leftSection={<IconMailPlus size={16} aria-hidden />} onClick={() => setInviting(true)}>{t('teams.invite')}</Button>
        </Group>
        {invitations.length === 0 ? <EmptyState text={t('teams.invitationsEmpty')} /> : (
          <Table.ScrollContainer minWidth={invitationsMinWidth}>
            <Table verticalSpacing="xs" aria-label={t('teams.invitations')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('teams.recipient')}</Table.Th>
                  <Table.Th visibleFrom="sm">{t('teams.expires')}</Table.Th>
                  <Table.Th><VisuallyHidden>{t('projects.actions')}</VisuallyHidden></Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {invitations.map((inv) => (
                  <Table.Tr key={inv.id} data-testid={`invitation-${inv.recipientEmail ?? inv.id}`}>
                    <Table.Td>
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{inv.recipientEmail ?? '—'}</Text>
                      <Text size="xs" c="dimmed" hiddenFrom="sm">{t('teams.expires')}: {formatDateTime(inv.expiresAt)}</Text>
                    </Table.Td>
                    <Table.Td visibleFrom="sm"><Text size="sm">{formatDateTime(inv.expiresAt)}</Text></Table.Td>
                    <Table.Td ta="right">
                      <Button size="xs" variant="subtle" color="red" aria-label={t('teams.revokeInvitation', { email: inv.recipientEmail ?? inv.id })} onClick={() => setRevoking(inv)}>
                        {t('teams.revokeButton')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      {inviting && <InviteModal team={team} onClose={() => setInviting(false)} />}
      {revoking && (
        <ConfirmModal
          title={t('teams.revokeInvitation', { email: revoking.recipientEmail ?? revoking.id })}
          text={t('teams.revokeInvitationText')}
          confirmLabel={t('teams.revokeButton')}
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await revoking.revoke();
            notifications.show({ color: 'green', message: t('teams.invitationRevoked') });
            setRevoking(null);
          }}
        />
      )}
    </Card>
  );
}

function InviteModal({ team, onClose }: { team: ServerTeam; onClose(): void }) {
  const { connection } = useProjectContext();
  const project = useAdminProject();
  const [saving, setSaving] = useState(false);
  const form = useForm({
    initialValues: { email: '', callbackUrl: invitationCallbackUrl(project.config.domains, connection.serviceUrl) },
    validate: {
      email: (v) => (isValidEmail(v.trim()) ? null : t('common.invalidEmail')),
      callbackUrl: (v) => (/^https?:\/\/\S+$/.test(v.trim()) ? null : t('connect.serviceUrlInvalid')),
    },
  });
  return (
    <Modal opened onClose={onClose} title={t('teams.inviteTitle', { name: team.displayName })}>
      <form noValidate onSubmit={form.onSubmit(async (v) => {
        setSaving(true);
        try {
          await team.inviteUser({ email: v.email.trim(), callbackUrl: v.callbackUrl.trim() });
          notifications.show({ color: 'green', message: t('teams.invited', { email: v.email.trim() }) });
          onClose();
        } catch (e) {
          showFieldError(form, e, 'email', [{ field: 'callbackUrl', codes: ['REDIRECT_URL_NOT_WHITELISTED'] }, { field: 'email', schemaPath: /email/ }]);
          setSaving(false);
        }
      })}>
        <Stack>
          <TextInput label={t('teams.inviteEmail')} type="email" data-autofocus withAsterisk {...form.getInputProps('email')} />
          <TextInput label={t('teams.inviteCallback')} description={t('teams.inviteCallbackHint')} {...form.getInputProps('callbackUrl')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={saving} disabled={saving}>{t('teams.inviteSend')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
