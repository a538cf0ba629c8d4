// Owners: the console accounts that own the project (the protocol's model: the project's id in their account's
// `managedProjectIds`), and removing one behind a confirmation, never the last one; inviting another by email and the
// pending invitations (owner-invitations.tsx).
import { useState } from 'react';
import { Button, Card, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMailPlus } from '@tabler/icons-react';
import type { ProjectOwner } from '@gatehouse/shared/client';
import { ConfirmModal } from '../components/confirm-modal';
import { ScreenHeader } from '../components/screen-header';
import { useProjectOwners } from '../hooks/use-admin-lists';
import { useProjectContext } from '../hooks/use-project-context';
import { formatDate } from '../lib/format';
import { OwnerInvitationsCard } from './owner-invitations';
import { t } from '../messages';

const ownerName = (o: ProjectOwner) => o.displayName ?? o.primaryEmail ?? o.userId;

export function OwnersScreen() {
  const owners = useProjectOwners();
  const [removing, setRemoving] = useState<ProjectOwner | null>(null);
  const [inviting, setInviting] = useState(false);
  const last = owners.length <= 1;
  return (
    <Stack gap="lg">
      <ScreenHeader title={t('owners.title')}>
        <Button leftSection={<IconMailPlus size={16} aria-hidden />} onClick={() => setInviting(true)}>{t('owners.invite')}</Button>
      </ScreenHeader>
      <Text size="sm" c="dimmed">{t('owners.intro')}</Text>
      <Card withBorder padding={0}>
        <Table verticalSpacing="sm" horizontalSpacing="md" aria-label={t('owners.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('owners.owner')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('owners.accountCreated')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {owners.map((o) => (
              <Table.Tr key={o.userId} data-testid="project-owner" data-user-id={o.userId}>
                <Table.Td>
                  <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>{ownerName(o)}</Text>
                  {o.displayName && o.primaryEmail && <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>{o.primaryEmail}</Text>}
                  {/* A phone has no room for a second column: the date goes under the name. */}
                  <Text size="xs" c="dimmed" hiddenFrom="sm">{t('owners.accountCreatedOn', { date: formatDate(o.signedUpAt) })}</Text>
                </Table.Td>
                <Table.Td visibleFrom="sm"><Text size="sm">{formatDate(o.signedUpAt)}</Text></Table.Td>
                <Table.Td ta="right">
                  <Button size="xs" variant="subtle" color="red" disabled={last} onClick={() => setRemoving(o)} aria-label={t('owners.removeNamed', { name: ownerName(o) })}>
                    {t('owners.remove')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
      {last && <Text size="sm" c="dimmed" data-testid="last-owner-note">{t('owners.lastOwner')}</Text>}
      <OwnerInvitationsCard inviting={inviting} onInvitingChange={setInviting} />
      {removing && <RemoveOwnerModal owner={removing} onClose={() => setRemoving(null)} />}
    </Stack>
  );
}

function RemoveOwnerModal({ owner, onClose }: { owner: ProjectOwner; onClose(): void }) {
  const { app } = useProjectContext();
  return (
    <ConfirmModal
      title={t('owners.removeTitle', { name: ownerName(owner) })}
      text={t('owners.removeText')}
      confirmLabel={t('owners.remove')}
      onClose={onClose}
      onConfirm={async () => {
        await app.removeProjectOwner(owner.userId);
        notifications.show({ color: 'green', message: t('owners.removed', { name: ownerName(owner) }) });
        onClose();
      }}
    />
  );
}
