// The user's picture, else two letters of their name or email, else a person icon (default size 34 px).
import { Avatar } from '@mantine/core';
import { IconUser } from '@tabler/icons-react';
import { teamInitial, userInitials } from '../lib/avatar';

export interface UserAvatarProps {
  user: { displayName?: string | null; primaryEmail?: string | null; profileImageUrl?: string | null } | null;
  size?: number;
}

export function UserAvatar({ user, size = 34 }: UserAvatarProps) {
  const initials = userInitials(user);
  const name = user?.displayName || user?.primaryEmail || undefined;
  return (
    <Avatar src={user?.profileImageUrl || null} size={size} radius="xl" alt={name} color="indigo" styles={{ placeholder: { fontSize: size * 0.4 } }}>
      {initials ?? <IconUser size={size * 0.6} aria-hidden />}
    </Avatar>
  );
}

export function TeamAvatar({ team, size = 34 }: { team: { displayName?: string | null; profileImageUrl?: string | null } | null; size?: number }) {
  return (
    <Avatar src={team?.profileImageUrl || null} size={size} radius="sm" alt={team?.displayName ?? undefined} color="teal" styles={{ placeholder: { fontSize: size * 0.45 } }}>
      {teamInitial(team)}
    </Avatar>
  );
}
