// A team's page (client-library §7.7): the parts a member sees follow their recursive permissions in the team,
// decided by lib/team-permissions.ts.
import { Button, Stack } from '@mantine/core';
import type { CurrentUser, Team } from '@gatehouse/shared/client';
import { DISPLAY_NAME_MAX_LENGTH } from '@gatehouse/shared/rules/names';
import { useTranslate } from '../context';
import { TeamAvatar } from '../components/user-avatar';
import { useProject } from '../hooks/use-project';
import { usePermissions, useTeamProfile } from '../hooks/use-user-data';
import { teamSections } from '../lib/team-permissions';
import { EditableText } from '../widgets/editable-text';
import { ImageEditor } from '../widgets/image-editor';
import { InlineConfirm } from '../widgets/inline-confirm';
import { SettingsSection } from '../widgets/settings-section';
import { useSettingsAction } from './settings-actions';
import { TeamMembers } from './team-members';
import { TeamInvite } from './team-invitations';
import { TeamApiKeys } from './team-api-keys';

export function TeamPage({ user, team }: { user: CurrentUser; team: Team }) {
  const t = useTranslate();
  const run = useSettingsAction();
  const project = useProject();
  const permissions = usePermissions(user, team);
  const profile = useTeamProfile(user, team);
  const show = teamSections(permissions.map((p) => p.id), { allowTeamApiKeys: project.config.allowTeamApiKeys });
  return (
    <Stack gap="lg" data-testid={`team-page-${team.id}`}>
      <SettingsSection
        id="team-user-name"
        title={t('settings.team.userName')}
        description={t('settings.team.userNameDescription')}
        actions={<EditableText maxLength={DISPLAY_NAME_MAX_LENGTH} label={t('settings.team.userName')} value={profile.displayName ?? ''} onSave={(displayName) => run(async () => {
          await profile.update({ displayName });
          // The members table shows team profiles too: fetch it again (it may be refused without $read_members).
          if (show.readMembers) await team.listUsers().catch(() => undefined);
        })} />}
      />
      {show.profileImage && (
        <SettingsSection
          id="team-image"
          title={t('settings.team.image')}
          description={t('settings.team.imageDescription')}
          actions={<ImageEditor shape="square" label={t('settings.image.upload')} preview={<TeamAvatar team={team} size={60} />} onSave={(profileImageUrl) => run(() => team.update({ profileImageUrl }))} />}
        />
      )}
      {show.displayName && (
        <SettingsSection
          id="team-display-name"
          title={t('settings.team.displayName')}
          description={t('settings.team.displayNameDescription')}
          actions={<EditableText maxLength={DISPLAY_NAME_MAX_LENGTH} label={t('settings.team.displayName')} value={team.displayName} onSave={(displayName) => run(() => team.update({ displayName }))} />}
        />
      )}
      {show.members && <TeamMembers team={team} user={user} canRead={show.readMembers} canRemove={show.removeMembers} />}
      {show.invite && <TeamInvite team={team} showInvitations={show.invitations} canRevoke={show.revokeInvitation} />}
      {show.apiKeys && <TeamApiKeys team={team} />}
      <SettingsSection
        id="team-leave"
        title={t('settings.team.leave')}
        description={t('settings.team.leaveDescription')}
        actions={
          <InlineConfirm
            trigger={(open) => <Button variant="default" color="red" size="sm" onClick={open}>{t('settings.team.leaveButton')}</Button>}
            text={t('settings.team.leaveConfirm')}
            confirmLabel={t('settings.team.leaveSubmit')}
            onConfirm={async () => {
              if (await run(() => user.leaveTeam(team))) window.location.reload();
            }}
          />
        }
      />
    </Stack>
  );
}
