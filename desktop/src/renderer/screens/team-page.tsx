// One team: its profile (name, image), metadata, members with their permissions, invitations, and deleting it; and
// its "Enterprise SSO" tab (team-enterprise.tsx).
import { useState } from 'react';
import { Anchor, Avatar, Button, Card, Group, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconTrash } from '@tabler/icons-react';
import type { ServerTeam } from '@gatehouse/shared/client';
import { ConfirmModal } from '../components/confirm-modal';
import { EmptyState } from '../components/empty-state';
import { ScreenBoundary } from '../components/screen-boundary';
import { ScreenHeader } from '../components/screen-header';
import { navigate } from '../hooks/use-route';
import { useTeam, useTeamRoute } from '../hooks/use-teams';
import { formatDate } from '../lib/format';
import { showFieldError } from '../components/field-error';
import { routeHash } from '../lib/routes';
import { teamFormBody, validateTeamForm, type TeamFormValues } from '../lib/teams';
import { t } from '../messages';
import { TeamMetadataCard } from './team-metadata';
import { TeamMembersCard } from './team-members';
import { TeamInvitationsCard } from './team-invitations';
import { TeamEnterpriseTab } from './team-enterprise';

export function TeamPage({ teamId }: { teamId: string }) {
  const team = useTeam(teamId);
  const teamRoute = useTeamRoute();
  const [deleting, setDeleting] = useState(false);
  const back = (
    <Anchor href={routeHash(teamRoute())} size="sm" onClick={(e) => { e.preventDefault(); navigate(teamRoute()); }}>
      <Group gap={4} wrap="nowrap"><IconArrowLeft size={14} aria-hidden />{t('teams.back')}</Group>
    </Anchor>
  );
  if (!team) {
    return (
      <Stack gap="lg">
        {back}
        <EmptyState text={t('teams.notFound')} />
      </Stack>
    );
  }
  return (
    <Stack gap="lg">
      {back}
      <ScreenHeader title={team.displayName}>
        <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setDeleting(true)}>{t('teams.delete')}</Button>
      </ScreenHeader>
      <Tabs defaultValue="team" keepMounted={false}>
        <Tabs.List mb="lg">
          <Tabs.Tab value="team">{t('teams.tabTeam')}</Tabs.Tab>
          <Tabs.Tab value="enterprise">{t('teams.tabEnterprise')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="team">
          <Stack gap="lg">
            <ProfileCard key={`${team.displayName}|${team.profileImageUrl}`} team={team} />
            {/* Each section loads on its own: a slow member list does not hold back the rest. */}
            <ScreenBoundary><TeamMembersCard team={team} /></ScreenBoundary>
            <ScreenBoundary><TeamInvitationsCard team={team} /></ScreenBoundary>
            <TeamMetadataCard key={JSON.stringify([team.clientMetadata, team.clientReadOnlyMetadata, team.serverMetadata])} team={team} />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="enterprise"><TeamEnterpriseTab team={team} /></Tabs.Panel>
      </Tabs>
      {deleting && <DeleteTeamModal team={team} onClose={() => setDeleting(false)} onDeleted={() => navigate(teamRoute())} />}
    </Stack>
  );
}

function ProfileCard({ team }: { team: ServerTeam }) {
  const [saving, setSaving] = useState(false);
  const form = useForm<TeamFormValues>({
    initialValues: { displayName: team.displayName, profileImageUrl: team.profileImageUrl ?? '' },
    validate: (v) => validateTeamForm(v, { required: t('common.required'), image: t('teams.image') }),
  });
  return (
    <Card withBorder padding="lg">
      <form noValidate onSubmit={form.onSubmit(async (v) => {
        setSaving(true);
        try {
          await team.update(teamFormBody(v));
          notifications.show({ color: 'green', message: t('teams.saved') });
        } catch (e) {
          showFieldError(form, e, 'displayName', [{ field: 'profileImageUrl', schemaPath: /profile_image_url/ }]);
        } finally {
          setSaving(false);
        }
      })}>
        <Stack>
          <Title order={2} size="h4">{t('teams.profile')}</Title>
          <Group align="flex-start" wrap="nowrap" gap="lg">
            <Avatar src={form.values.profileImageUrl.trim() || null} name={form.values.displayName} color="indigo" size="lg" alt="" />
            <Stack gap="sm" style={{ flex: 1, minWidth: 0 }}>
              <TextInput label={t('teams.name')} withAsterisk {...form.getInputProps('displayName')} />
              <TextInput label={t('teams.image')} description={t('teams.imageHint')} {...form.getInputProps('profileImageUrl')} />
              <Group gap="lg">
                <Text size="sm" c="dimmed">{t('teams.id')}: <Text span ff="monospace" size="sm">{team.id}</Text></Text>
                <Text size="sm" c="dimmed">{t('teams.created')}: {formatDate(team.createdAt)}</Text>
              </Group>
            </Stack>
          </Group>
          <Group justify="flex-end">
            <Button type="submit" loading={saving} disabled={saving}>{t('common.save')}</Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function DeleteTeamModal({ team, onClose, onDeleted }: { team: ServerTeam; onClose(): void; onDeleted(): void }) {
  const [typed, setTyped] = useState('');
  const matches = typed.trim() === team.displayName;
  return (
    <ConfirmModal
      title={t('teams.deleteTitle', { name: team.displayName })}
      text={t('teams.deleteText')}
      confirmLabel={t('teams.delete')}
      canConfirm={matches}
      onClose={onClose}
      onConfirm={async () => {
        await team.delete();
        notifications.show({ color: 'green', message: t('teams.deleted', { name: team.displayName }) });
        onDeleted();
      }}
    >
      <TextInput
        label={t('teams.deleteConfirmLabel')}
        data-autofocus
        value={typed}
        onChange={(e) => setTyped(e.currentTarget.value)}
        error={typed && !matches ? t('teams.deleteMismatch') : undefined}
      />
    </ConfirmModal>
  );
}
