// One member's permissions in a team (components/permission-grants.tsx), in a dialog of the team's page.
import { Modal } from '@mantine/core';
import type { ServerTeam, ServerTeamUser } from '@gatehouse/shared/client';
import { PermissionGrants } from '../components/permission-grants';
import { ScreenBoundary } from '../components/screen-boundary';
import { useMemberPermissions, useTeamPermissionDefinitions } from '../hooks/use-teams';
import { memberName } from '../lib/teams';
import { t } from '../messages';

export function MemberPermissionsModal({ team, member, onClose }: { team: ServerTeam; member: ServerTeamUser; onClose(): void }) {
  return (
    <Modal opened onClose={onClose} size="lg" title={t('teams.permissions', { user: memberName(member) })}>
      <ScreenBoundary>
        <MemberPermissions team={team} member={member} />
      </ScreenBoundary>
    </Modal>
  );
}

function MemberPermissions({ team, member }: { team: ServerTeam; member: ServerTeamUser }) {
  const direct = useMemberPermissions(member, team.id, false);
  const held = useMemberPermissions(member, team.id, true);
  const defs = useTeamPermissionDefinitions();
  return (
    <PermissionGrants
      direct={direct}
      held={held}
      defs={defs}
      label={t('teams.permissions', { user: memberName(member) })}
      emptyText={t('teams.permissionsNone')}
      change={(kind, id) => (kind === 'grant' ? member.grantPermission(team, id) : member.revokePermission(team, id))}
    />
  );
}
