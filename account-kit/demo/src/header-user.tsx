import { UserButton } from '@gatehouse/account-kit';

export function HeaderUser() {
  return <UserButton showUserInfo />;
}
