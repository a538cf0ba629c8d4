import { Button } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import type { CurrentUser } from '@gatehouse/shared/client';
import { t } from '../messages';

/** The signed-in owner's address and a sign-out button. */
export function OwnerMenu({ user }: { user: CurrentUser }) {
  return (
    <Button variant="subtle" size="compact-sm" leftSection={<IconLogout size={16} aria-hidden />} onClick={() => void user.signOut()} title={user.primaryEmail ?? undefined}>
      {t('app.signOut')}
    </Button>
  );
}
