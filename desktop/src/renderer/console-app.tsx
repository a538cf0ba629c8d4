// The console: Mantine, the route, and which connection (owner session or admin key) the route is about.
import { use, useCallback, useEffect, useMemo, useState } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { GatehouseProvider, gatehouseCssVariables, useUser } from '@gatehouse/account-kit';
import { consoleTheme } from './theme';
import type { SavedConnection } from '../shared/bridge';
import type { Platform } from './platform';
import { ConsoleShell } from './components/console-shell';
import { ListSkeleton, ScreenBoundary } from './components/screen-boundary';
import { useConnections } from './hooks/use-connections';
import { navigate, useRoute } from './hooks/use-route';
import { keyAdminApp, ownerApp } from './lib/apps';
import { routeForRedirect, type Route } from './lib/routes';
import { ConnectScreen } from './screens/connect';
import { SignInScreen } from './screens/sign-in';
import { ProjectsScreen } from './screens/projects';
import { OwnedProjectArea, ProjectArea } from './screens/project-shell';
import { OwnerMenu } from './components/owner-menu';
import { WeakStorageDialog } from './components/weak-storage-dialog';
import { ownerCallbackOf, ownerCallbackOfReturn, takeInvitationReturn, type OwnerCallback } from './lib/owner-callback';
import { OwnerCallbackScreen } from './screens/owner-callback';
import { AcceptOwnerInvitationScreen } from './screens/accept-owner-invitation';
import { THIS_SERVICE_ID } from './lib/web-connections';

export function ConsoleApp({ platform }: { platform: Platform }) {
  return (
    <MantineProvider theme={consoleTheme} cssVariablesResolver={gatehouseCssVariables} defaultColorScheme="auto">
      {/* Bottom right: at the top, toasts covered the header's search and the screen's main action for seconds. */}
      <Notifications position="bottom-right" />
      {platform.kind === 'desktop' && <WeakStorageDialog />}
      <Routes platform={platform} />
    </MantineProvider>
  );
}

function Routes({ platform }: { platform: Platform }) {
  const route = useRoute();
  const connections = useConnections(platform);
  // An owner's sign-in coming back (OAuth, magic link): to the web console, read once at the first render; to the
  // desktop app, handed over by the main process's loopback listener whenever the browser comes back.
  const [pending, setPending] = useState<{ connectionId: string; callback: OwnerCallback } | null>(() => {
    const callback = platform.kind === 'web' ? ownerCallbackOf(window.location.search) : null;
    return callback && { connectionId: THIS_SERVICE_ID, callback };
  });
  useEffect(() => platform.onSignInReturn((url) => setPending(ownerCallbackOfReturn(url))), [platform]);
  const callbackDone = useCallback(() => setPending(null), []);
  if (pending) {
    const service = connections.list?.find((c) => c.id === pending.connectionId && c.kind === 'owner');
    if (!service) return <ConsoleShell><ListSkeleton /></ConsoleShell>;
    return (
      <ScreenBoundary key={JSON.stringify(pending)} fallback={<ConsoleShell><ListSkeleton /></ConsoleShell>}>
        <OwnerArea platform={platform} connection={service} route={route} callback={pending.callback} onCallbackDone={callbackDone} />
      </ScreenBoundary>
    );
  }
  if (route.name === 'connect') return <ConnectScreen platform={platform} connections={connections} />;
  if (!connections.list) return <ConsoleShell><ListSkeleton /></ConsoleShell>;
  const connection = connections.list.find((c) => c.id === route.connectionId);
  if (!connection) return <ConnectScreen platform={platform} connections={connections} />;
  if (connection.kind === 'project') {
    const app = keyAdminApp(platform, connection);
    // A saved project whose key this session does not know: the connect screen asks for it again.
    if (!app) return <ConnectScreen platform={platform} connections={connections} reconnect={connection} />;
    const screen = route.name === 'project' ? route.screen : 'overview';
    return <ProjectArea app={app} connection={connection} projectId={connection.projectId!} screen={screen} />;
  }
  return (
    <ScreenBoundary fallback={<ConsoleShell><ListSkeleton /></ConsoleShell>}>
      <OwnerArea platform={platform} connection={connection} route={route} />
    </ScreenBoundary>
  );
}

function OwnerArea({ platform, connection, route, callback, onCallbackDone }: {
  platform: Platform; connection: SavedConnection; route: Route; callback?: OwnerCallback; onCallbackDone?: () => void;
}) {
  const appPromise = useMemo(
    () =>
      ownerApp(platform, connection, {
        navigate: (url) => {
          const to = routeForRedirect(url, connection.id);
          // After a password sign-in or sign-up started on an owner invitation's page: back to accepting it.
          if (to?.name === 'projects') navigate(takeInvitationReturn(sessionStorage, connection.id) ?? to);
          else if (to) navigate(to);
          else if (platform.kind === 'web') window.location.assign(url);
          else platform.openExternal(url);
        },
      }),
    [platform, connection],
  );
  const app = use(appPromise);
  if (callback && onCallbackDone) {
    return <OwnerCallbackScreen app={app} platformKind={platform.kind} callback={callback} connectionId={connection.id} label={connection.label} onDone={onCallbackDone} />;
  }
  return (
    <GatehouseProvider app={app} mantine={false}>
      {/* Keyed by the route: an error on one screen does not stay when the owner goes elsewhere. */}
      <ScreenBoundary key={JSON.stringify(route)} fallback={<ConsoleShell><ListSkeleton /></ConsoleShell>}>
        <OwnerRoutes connection={connection} route={route} />
      </ScreenBoundary>
    </GatehouseProvider>
  );
}

function OwnerRoutes({ connection, route }: { connection: SavedConnection; route: Route }) {
  const user = useUser();
  if (!user) return <SignInScreen connection={connection} mode={route.name === 'sign-up' ? 'sign-up' : 'sign-in'} />;
  if (route.name === 'project') {
    return <OwnedProjectArea user={user} connection={connection} projectId={route.projectId} screen={route.screen} />;
  }
  if (route.name === 'owner-invitation') {
    return (
      <ConsoleShell context={connection.label} actions={<OwnerMenu user={user} />}>
        <AcceptOwnerInvitationScreen user={user} connectionId={connection.id} code={route.code} />
      </ConsoleShell>
    );
  }
  return (
    <ConsoleShell context={connection.label} actions={<OwnerMenu user={user} />}>
      <ScreenBoundary>
        <ProjectsScreen user={user} connection={connection} />
      </ScreenBoundary>
    </ConsoleShell>
  );
}
