// The user page's project permissions (user-level, not in a team): granted, contained, grant and revoke.
import { Suspense } from 'react';
import { Skeleton } from '@mantine/core';
import type { ServerUser } from '@gatehouse/shared/client';
import { PermissionGrants } from '../components/permission-grants';
import { SectionCard as Section } from '../components/section-card';
import { useProjectPermissionDefinitions, useUserProjectPermissions } from '../hooks/use-project-permissions';
import { t } from '../messages';

export function ProjectPermissionsSection({ user }: { user: ServerUser }) {
  return (
    <Section title={t('pperm.userSection')}>
      <Suspense fallback={<Skeleton height={60} />}>
        <UserProjectPermissions user={user} />
      </Suspense>
    </Section>
  );
}

function UserProjectPermissions({ user }: { user: ServerUser }) {
  const direct = useUserProjectPermissions(user, false);
  const held = useUserProjectPermissions(user, true);
  const defs = useProjectPermissionDefinitions();
  return (
    <PermissionGrants
      direct={direct}
      held={held}
      defs={defs}
      label={t('pperm.userSection')}
      emptyText={t('pperm.userNone')}
      change={(kind, id) => (kind === 'grant' ? user.grantPermission(id) : user.revokePermission(id))}
    />
  );
}
