// A project's frame: the left navigation (one entry per screen) and the screen the route names.
import { useMemo, type ComponentType, type ReactNode } from 'react';
import { NavLink, Stack, Divider } from '@mantine/core';
import {
  IconArrowLeft, IconBrandOauth, IconBuildingCommunity, IconGauge, IconKey, IconMail, IconMailForward, IconSettings, IconTemplate, IconUsersGroup,
} from '@tabler/icons-react';
import type { CurrentUser, GatehouseAdminApp } from '@gatehouse/shared/client';
import { useOwnedProjects } from '../hooks/use-owned-projects';
import type { SavedConnection } from '../../shared/bridge';
import { ConsoleShell } from '../components/console-shell';
import { CommandPalette, PaletteButton } from '../components/command-palette';
import { OwnerMenu } from '../components/owner-menu';
import { ScreenBoundary } from '../components/screen-boundary';
import { ProjectContext, useAdminProjectName } from '../hooks/use-project-context';
import { CopyIdButton } from '../components/copy-field';
import { navigate } from '../hooks/use-route';
import { PROJECT_SCREENS, type ProjectScreen } from '../lib/routes';
import { projectContext } from '../lib/connect-rules';
import type { PaletteProject } from '../lib/palette';
import { t } from '../messages';
import { OverviewScreen } from './overview';
import { ConfigurationScreen } from './configuration';
import { OAuthProvidersScreen } from './oauth-providers';
import { OAuthAppsScreen } from './oauth-apps';
import { EmailScreen } from './email';
import { EmailTemplatesScreen } from './email-templates';
import { ApiKeysScreen } from './api-keys';
import { TeamPermissionsScreen } from './team-permissions';
import { ProjectPermissionsScreen } from './project-permissions';
import { OwnersScreen } from './owners';
import { SentEmailsScreen } from './sent-emails';
import { SecurityScreen } from './security';
import { WebhooksScreen } from './webhooks';
import { lazy } from 'react';
import { IconChartBar, IconCrown, IconListDetails, IconLockAccess, IconShieldLock, IconWebhook } from '@tabler/icons-react';
import { TeamsScreen } from './teams';
import { UsersScreen } from './users';
import { AuditLogScreen } from './audit-log';
import { IconApps, IconUsers } from '@tabler/icons-react';

// The charts library is large: its screen's code loads when the screen is first opened.
const MetricsScreen = lazy(() => import('./metrics').then((m) => ({ default: m.MetricsScreen })));

const SCREENS: Record<ProjectScreen, { component: ComponentType; icon: ComponentType<{ size?: number; 'aria-hidden'?: boolean }> }> = {
  overview: { component: OverviewScreen, icon: IconGauge },
  configuration: { component: ConfigurationScreen, icon: IconSettings },
  security: { component: SecurityScreen, icon: IconShieldLock },
  'oauth-providers': { component: OAuthProvidersScreen, icon: IconBrandOauth },
  'oauth-apps': { component: OAuthAppsScreen, icon: IconApps },
  email: { component: EmailScreen, icon: IconMail },
  'email-templates': { component: EmailTemplatesScreen, icon: IconTemplate },
  'api-keys': { component: ApiKeysScreen, icon: IconKey },
  'team-permissions': { component: TeamPermissionsScreen, icon: IconUsersGroup },
  'project-permissions': { component: ProjectPermissionsScreen, icon: IconLockAccess },
  'sent-emails': { component: SentEmailsScreen, icon: IconMailForward },
  metrics: { component: MetricsScreen, icon: IconChartBar },
  webhooks: { component: WebhooksScreen, icon: IconWebhook },
  'audit-log': { component: AuditLogScreen, icon: IconListDetails },
  teams: { component: TeamsScreen, icon: IconBuildingCommunity },
  users: { component: UsersScreen, icon: IconUsers },
  owners: { component: OwnersScreen, icon: IconCrown },
};

interface AreaProps {
  app: GatehouseAdminApp;
  connection: SavedConnection;
  projectId: string;
  screen: ProjectScreen;
  actions?: React.ReactNode;
  showAllProjects?: boolean;
  /** The projects the command palette offers (default: this one). */
  projects?: readonly PaletteProject[];
}

export function ProjectArea({ app, connection, projectId, screen, actions, showAllProjects, projects }: AreaProps) {
  const value = useMemo(() => ({ app, connection, projectId }), [app, connection, projectId]);
  const Screen = SCREENS[screen].component;
  const navbar = (
    <Stack gap={2}>
      {showAllProjects && (
        <>
          <NavLink href={`#/c/${encodeURIComponent(connection.id)}`} label={t('nav.allProjects')} leftSection={<IconArrowLeft size={18} aria-hidden />} />
          <Divider my={4} />
        </>
      )}
      {PROJECT_SCREENS.map((s) => {
        const Icon = SCREENS[s].icon;
        return (
          <NavLink
            key={s}
            href={`#/c/${encodeURIComponent(connection.id)}/p/${encodeURIComponent(projectId)}/${s}`}
            label={t(`nav.${s}`)}
            leftSection={<Icon size={18} aria-hidden />}
            active={s === screen}
            aria-current={s === screen ? 'page' : undefined}
            onClick={(e) => {
              e.preventDefault();
              navigate({ name: 'project', connectionId: connection.id, projectId, screen: s });
            }}
          />
        );
      })}
    </Stack>
  );
  return (
    <ProjectContext.Provider value={value}>
      <CommandPalette projects={projects ?? [{ id: projectId, name: projectId }]} />
      <ProjectFrame navbar={navbar} connectionLabel={connection.label} projectId={projectId} actions={<><PaletteButton />{actions}</>}>
        <ScreenBoundary key={screen}>
          <Screen />
        </ScreenBoundary>
      </ProjectFrame>
    </ProjectContext.Provider>
  );
}

/** The shell inside a project: the header names the project (its id one click away, copied). */
function ProjectFrame({ navbar, connectionLabel, projectId, actions, children }: {
  navbar: ReactNode; connectionLabel: string; projectId: string; actions: ReactNode; children: ReactNode;
}) {
  const name = useAdminProjectName();
  return (
    <ConsoleShell navbar={navbar} context={projectContext(connectionLabel, projectId, name)} contextAction={<CopyIdButton value={projectId} label={t('project.copyId')} />} actions={actions}>
      {children}
    </ConsoleShell>
  );
}

/** A project of the signed-in owner: its admin app acts through the owner's session. */
export function OwnedProjectArea({ user, connection, projectId, screen }: { user: CurrentUser; connection: SavedConnection; projectId: string; screen: ProjectScreen }) {
  const projects = useOwnedProjects(user);
  const project = projects.find((p) => p.id === projectId);
  if (!project) throw new Error(`Project ${projectId} is not one of yours`);
  const palette = projects.map((p) => ({ id: p.id, name: p.displayName }));
  return <ProjectArea app={project.app} connection={connection} projectId={projectId} screen={screen} actions={<OwnerMenu user={user} />} showAllProjects projects={palette} />;
}

