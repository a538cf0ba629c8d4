// Picks the user's selected team (PATCH /users/me selected_team_id) from the teams they belong to.
import { Suspense } from 'react';
import { Select, Skeleton } from '@mantine/core';
import type { Team } from '@gatehouse/shared/client';
import { useTranslate } from '../context';
import { useUser } from '../hooks/use-user';
import { useTeams } from '../hooks/use-user-data';
import { registerEnglish } from '../messages';
import { enPages } from '../messages/en-pages';

registerEnglish(enPages);

export interface SelectedTeamSwitcherProps {
  /** Called after the selection is saved (e.g. to navigate to the team's page). */
  onChange?: (team: Team | null) => void;
}

export function SelectedTeamSwitcher(props: SelectedTeamSwitcherProps) {
  return (
    <Suspense fallback={<Skeleton height={36} width={200} />}>
      <Switcher {...props} />
    </Suspense>
  );
}

function Switcher({ onChange }: SelectedTeamSwitcherProps) {
  const t = useTranslate();
  const user = useUser({ or: 'throw' });
  const teams = useTeams(user);
  return (
    <Select
      label={t('teamSwitcher.label')}
      placeholder={teams.length ? t('teamSwitcher.placeholder') : t('teamSwitcher.noTeams')}
      data={teams.map((team) => ({ value: team.id, label: team.displayName }))}
      value={user.selectedTeam?.id ?? null}
      disabled={!teams.length}
      allowDeselect={false}
      onChange={async (id) => {
        const team = teams.find((x) => x.id === id) ?? null;
        await user.setSelectedTeam(team);
        onChange?.(team);
      }}
    />
  );
}
