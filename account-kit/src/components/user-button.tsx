// The avatar menu of a host app's header: who is signed in, account settings, sign out (or sign in / sign up).
import { Suspense } from 'react';
import { Box, Menu, Skeleton, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconLogin, IconLogout, IconSettings, IconUserPlus } from '@tabler/icons-react';
import { useGatehouseApp, useTranslate } from '../context';
import { useUser } from '../hooks/use-user';
import { UserAvatar } from './user-avatar';
import { registerEnglish } from '../messages';
import { enPages } from '../messages/en-pages';

registerEnglish(enPages);

export interface UserButtonProps {
  /** Show the name and email beside the avatar. */
  showUserInfo?: boolean;
  /** Extra menu entries above "Account settings". */
  extraItems?: { text: string; icon?: React.ReactNode; onClick: () => void }[];
}

// The menu is where people check which account they are in: a long address wraps there instead of being cut.
const WRAP_ANYWHERE = { overflowWrap: 'anywhere' } as const;

export function UserButton(props: UserButtonProps) {
  return (
    <Suspense fallback={<Skeleton circle height={34} />}>
      <UserButtonInner {...props} />
    </Suspense>
  );
}

function UserButtonInner({ showUserInfo, extraItems = [] }: UserButtonProps) {
  const app = useGatehouseApp();
  const t = useTranslate();
  const user = useUser();
  return (
    <Menu position="bottom-end" shadow="md" width={280} withinPortal>
      <Menu.Target>
        {/* Named by its content (a hidden "Open account menu" plus what it shows), so the visible name and
            email are part of the accessible name, as WCAG's "label in name" asks. */}
        <UnstyledButton style={{ display: 'flex', alignItems: 'center', gap: 8, borderRadius: 999 }}>
          <VisuallyHidden>{t('userButton.open')}</VisuallyHidden>
          <UserAvatar user={user} />
          {showUserInfo && user && (
            // Bounded: a long name (up to 100 characters) is cut here and shown whole in the menu, never pushing the
            // host's header apart (issue 25).
            <Box style={{ minWidth: 0 }} maw={220}>
              <Text size="sm" fw={500} truncate>{user.displayName || user.primaryEmail}</Text>
              {user.displayName && user.primaryEmail && <Text size="xs" c="dimmed" truncate>{user.primaryEmail}</Text>}
            </Box>
          )}
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {user ? (
          <>
            <Menu.Label>
              {/* Divs, not paragraphs: a menu may only hold items, groups and separators (axe aria-required-children). */}
              <Text component="div" size="sm" fw={500} c="var(--mantine-color-text)" style={WRAP_ANYWHERE}>{user.displayName || user.primaryEmail || t('userButton.anonymous')}</Text>
              {user.displayName && user.primaryEmail && <Text component="div" size="xs" style={WRAP_ANYWHERE}>{user.primaryEmail}</Text>}
            </Menu.Label>
            <Menu.Divider />
            {extraItems.map((item) => (
              <Menu.Item key={item.text} leftSection={item.icon} onClick={item.onClick}>{item.text}</Menu.Item>
            ))}
            <Menu.Item leftSection={<IconSettings size={16} aria-hidden />} onClick={() => void app.redirectToAccountSettings()}>
              {t('userButton.accountSettings')}
            </Menu.Item>
            <Menu.Item leftSection={<IconLogout size={16} aria-hidden />} onClick={() => void user.signOut()}>
              {t('common.signOut')}
            </Menu.Item>
          </>
        ) : (
          <>
            <Menu.Item leftSection={<IconLogin size={16} aria-hidden />} onClick={() => void app.redirectToSignIn()}>{t('userButton.signIn')}</Menu.Item>
            <Menu.Item leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => void app.redirectToSignUp()}>{t('userButton.signUp')}</Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
