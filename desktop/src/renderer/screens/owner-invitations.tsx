// The Owners screen's invitations: invite someone by email to own the project too (the mail's link opens the web
// console's accept page), and the pending invitations, each revocable behind a confirmation.
import { useState } from 'react';
import { Button, Card, Group, Modal, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { OwnerInvitation } from '@gatehouse/shared/client';
import { isValidEmail } from '@gatehouse/shared/rules/email';
import { ConfirmModal } from '../components/confirm-modal';
import { EmptyState } from '../components/empty-state';
import { showFieldError } from '../components/field-error';
import { useOwnerInvitations } from '../hooks/use-admin-lists';
import { useProjectContext } from '../hooks/use-project-context';
import { formatDateTime } from '../lib/format';
import { ownerInvitationCallbackUrl } from '../lib/owner-invitations';
import { t } from '../messages';

export function OwnerInvitationsCard({ inviting, onInvitingChange }: { inviting: boolean; onInvitingChange(open: boolean): void }) {
  const invitations = useOwnerInvitations();
  const [revoking, setRevoking] = useState<OwnerInvitation | null>(null);
  return (
    <Card withBorder padding="lg">
      <Stack>
        <Title order={2} size="h4">{t('owners.invitations')}</Title>
        {invitations.length === 0 ? <EmptyState text={t('owners.invitationsEmpty')} /> : (
          <Table verticalSpacing="xs" aria-label={t('owners.invitations')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('owners.invitedAddress')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('owners.expires')}</Table.Th>
                <Table.Th><VisuallyHidden>{t('projects.actions')}</VisuallyHidden></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invitations.map((inv) => (
                <Table.Tr key={inv.id} data-testid="owner-invitation">
                  <Table.Td>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{inv.recipientEmail}</Text>
                    {/* A phone has no room for a second column: the expiry goes under the address. */}
                    <Text size="xs" c="dimmed" hiddenFrom="sm">{t('owners.expiresOn', { date: formatDateTime(inv.expiresAt) })}</Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm"><Text size="sm">{formatDateTime(inv.expiresAt)}</Text></Table.Td>
                  <Table.Td ta="right">
                    <Button size="xs" variant="subtle" color="red" aria-label={t('owners.revokeNamed', { email: inv.recipientEmail })} onClick={() => setRevoking(inv)}>
                      {t('owners.revoke')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      {inviting && <InviteOwnerModal onClose={() => onInvitingChange(false)} />}
      {revoking && (
        <ConfirmModal
          title={t('owners.revokeTitle', { email: revoking.recipientEmail })}
          text={t('owners.revokeText')}
          confirmLabel={t('owners.revoke')}
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await revoking.revoke();
            notifications.show({ color: 'green', message: t('owners.revoked', { email: revoking.recipientEmail }) });
            setRevoking(null);
          }}
        />
      )}
    </Card>
  );
}

function InviteOwnerModal({ onClose }: { onClose(): void }) {
  const { app, connection } = useProjectContext();
  const [saving, setSaving] = useState(false);
  const form = useForm({
    initialValues: { email: '' },
    validate: { email: (v) => (isValidEmail(v.trim()) ? null : t('common.invalidEmail')) },
  });
  return (
    <Modal opened onClose={onClose} title={t('owners.inviteTitle')}>
      <form noValidate onSubmit={form.onSubmit(async (v) => {
        const email = v.email.trim();
        setSaving(true);
        try {
          await app.inviteProjectOwner({ email, callbackUrl: ownerInvitationCallbackUrl(connection.serviceUrl) });
          notifications.show({ color: 'green', message: t('owners.invited', { email }) });
          onClose();
        } catch (e) {
          showFieldError(form, e, 'email', [{ field: 'email', schemaPath: /email/ }]);
          setSaving(false);
        }
      })}>
        <Stack>
          <Text size="sm">{t('owners.inviteText')}</Text>
          <TextInput label={t('owners.inviteEmail')} type="email" data-autofocus withAsterisk {...form.getInputProps('email')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={saving} disabled={saving}>{t('owners.inviteSend')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
