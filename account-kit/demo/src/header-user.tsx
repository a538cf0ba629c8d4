import { Box } from '@mantine/core';
import { UserButton } from '@gatehouse/account-kit';

// On phones the name beside the avatar would squeeze the title onto two lines: the avatar alone is shown there.
export function HeaderUser() {
  return (
    <>
      <Box visibleFrom="sm"><UserButton showUserInfo /></Box>
      <Box hiddenFrom="sm"><UserButton /></Box>
    </>
  );
}
