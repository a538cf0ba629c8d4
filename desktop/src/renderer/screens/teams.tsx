// Teams: the project's teams with a search, create one, open one (its page is team-page.tsx).
import { useState } from 'react';
import { Anchor, Avatar, Button, Card, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import type { ServerTeam } from '@gatehouse/shared/client';
import { EmptyState } from '../components/empty-state';
import { ScreenHeader } from '../components/screen-header';
import { useProjectContext } from '../hooks/use-project-context';
import { navigate, useRoute } from '../hooks/use-route';
import { useTeamRoute, useTeams } from '../hooks/use-teams';
import { formatDate } from '../lib/format';
import { showFieldError } from '../components/field-error';
import { routeHash } from '../lib/routes';
import { filterTeams, teamFormBody, validateTeamForm, type TeamFormValues } from '../lib/teams';
import { t } from '../messages';
import { TeamPage } from './team-page';

export function TeamsScreen() {
  const route = useRoute();
  const teamId = route.name === 'project' ? route.itemId : undefined;
  return teamId ? <TeamPage key={teamId} teamId={teamId} /> : <TeamList />;
}

function TeamList() {
  const teams = useTeams();
  const teamRoute = useTeamRoute();
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const shown = filterTeams(teams, search);
  return (
    <Stack gap="lg">
      <ScreenHeader title={t('teams.title')}>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>{t('teams.create')}</Button>
      </ScreenHeader>
      {teams.length === 0 ? <EmptyState text={t('teams.empty')} /> : (
        <>
          <TextInput
            label={t('teams.search')}
            placeholder={t('teams.searchPlaceholder')}
            leftSection={<IconSearch size={16} aria-hidden />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            maw={420}
          />
          {shown.length === 0 ? <EmptyState text={t('teams.noMatch', { query: search.trim() })} /> : (
            <Card withBorder padding={0}>
              <Table.ScrollContainer minWidth={340}>
                <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover aria-label={t('teams.title')}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('teams.name')}</Table.Th>
                      <Table.Th visibleFrom="sm">{t('teams.id')}</Table.Th>
                      <Table.Th>{t('teams.created')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {shown.map((team) => (
                      <Table.Tr key={team.id} data-testid="team-row">
                        <Table.Td>
                          <Group gap="sm" wrap="nowrap">
                            <Avatar src={team.profileImageUrl} name={team.displayName} size="sm" color="indigo" alt="" />
                            <Anchor
                              href={routeHash(teamRoute(team.id))}
                              fw={600}
                              onClick={(e) => {
                                e.preventDefault();
                                navigate(teamRoute(team.id));
                              }}
                            >
                              {team.displayName}
                            </Anchor>
                          </Group>
                        </Table.Td>
                        <Table.Td visibleFrom="sm"><Text size="sm" ff="monospace">{team.id}</Text></Table.Td>
                        <Table.Td><Text size="sm">{formatDate(team.createdAt)}</Text></Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Card>
          )}
        </>
      )}
      {creating && <CreateTeamModal onClose={() => setCreating(false)} onCreated={(team) => navigate(teamRoute(team.id))} />}
    </Stack>
  );
}

function CreateTeamModal({ onClose, onCreated }: { onClose(): void; onCreated(team: ServerTeam): void }) {
  const { app } = useProjectContext();
  const [saving, setSaving] = useState(false);
  const form = useForm<TeamFormValues>({
    initialValues: { displayName: '', profileImageUrl: '' },
    validate: (v) => validateTeamForm(v, { required: t('common.required'), image: t('teams.image') }),
  });
  return (
    <Modal opened onClose={onClose} title={t('teams.createTitle')}>
      <form noValidate onSubmit={form.onSubmit(async (v) => {
        setSaving(true);
        try {
          const team = await app.createTeam(teamFormBody(v));
          notifications.show({ color: 'green', message: t('teams.createdToast', { name: team.displayName }) });
          onClose();
          onCreated(team);
        } catch (e) {
          showFieldError(form, e, 'displayName', [{ field: 'profileImageUrl', schemaPath: /profile_image_url/ }]);
          setSaving(false);
        }
      })}>
        <Stack>
          <TextInput label={t('teams.name')} data-autofocus withAsterisk {...form.getInputProps('displayName')} />
          <TextInput label={t('teams.image')} description={t('teams.imageHint')} {...form.getInputProps('profileImageUrl')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={saving} disabled={saving}>{t('teams.create')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
