// My Profile (client-library §7.2): display name and profile image.
import { Alert, Stack } from '@mantine/core';
import type { CurrentUser } from '@gatehouse/shared/client';
import { DISPLAY_NAME_MAX_LENGTH } from '@gatehouse/shared/rules/names';
import { useTranslate } from '../context';
import { UserAvatar } from '../components/user-avatar';
import { EditableText } from '../widgets/editable-text';
import { ImageEditor } from '../widgets/image-editor';
import { SettingsSection } from '../widgets/settings-section';
import { useSettingsAction } from './settings-actions';
import { useManagingOrganizations } from '../hooks/use-user-data';
import { managedByText } from '../lib/managed-by';

export function ProfileSection({ user }: { user: CurrentUser }) {
  const t = useTranslate();
  const run = useSettingsAction();
  const managers = useManagingOrganizations(user);
  return (
    <Stack gap="lg">
      {managers.map((m) => {
        const text = managedByText(m);
        return <Alert key={m.teamId} color="blue" title={t('settings.profile.managedTitle')}>{t(text.key, text.values)}</Alert>;
      })}
      <SettingsSection
        id="profile-name"
        title={t('settings.profile.name')}
        description={t('settings.profile.nameDescription')}
        actions={<EditableText maxLength={DISPLAY_NAME_MAX_LENGTH} label={t('settings.profile.name')} value={user.displayName ?? ''} onSave={(displayName) => run(() => user.update({ displayName }))} />}
      />
      <SettingsSection
        id="profile-image"
        title={t('settings.profile.image')}
        description={t('settings.profile.imageDescription')}
        actions={
          <ImageEditor
            label={t('settings.image.upload')}
            preview={<UserAvatar user={user} size={60} />}
            onSave={(profileImageUrl) => run(() => user.update({ profileImageUrl }))}
          />
        }
      />
    </Stack>
  );
}
