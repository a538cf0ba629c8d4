// The demo's own pages: a home page that says what this app is (a demo built with the account kit), links the
// console, the API reference and the account settings, and shows the signed-in person and their teams; and a
// protected page (useUser({or: 'redirect'})).
import { Suspense } from 'react';
import { Anchor, Button, Card, Code, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { TeamAvatar, useGatehouseApp, useProject, useTeams, useUser, type CurrentUser } from '@gatehouse/account-kit';

export function LandingPage() {
  const app = useGatehouseApp();
  const user = useUser();
  const project = useProject();
  return (
    <Stack gap="lg">
      <Card withBorder padding="lg">
        <Stack>
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>{project.displayName}</Title>
          <Text data-testid="demo-intro">
            A demo app built with the Gatehouse account kit. Its sign-in pages, account settings and team pages are
            the kit&apos;s ready-made screens, signing people into the project <Code>{project.id}</Code> of this
            Gatehouse service.
          </Text>
          <Group gap="md" component="nav" aria-label="Gatehouse" style={{ rowGap: 4 }}>
            <Anchor href="/console">Console</Anchor>
            <Anchor href="/api/v1/docs">API reference</Anchor>
            <Anchor href={app.urls.accountSettings}>Account settings</Anchor>
          </Group>
        </Stack>
      </Card>
      <Card withBorder padding="lg">
        <Stack>
          {user ? (
            <>
              <Text data-testid="signed-in-as" style={{ overflowWrap: 'anywhere' }}>Signed in as <b>{user.primaryEmail ?? user.displayName ?? user.id}</b></Text>
              <Group>
                <Button component="a" href="/protected">Protected page</Button>
                <Button variant="default" onClick={() => void app.redirectToAccountSettings()}>Account settings</Button>
                <Button variant="subtle" onClick={() => void user.signOut()}>Sign out</Button>
              </Group>
            </>
          ) : (
            <>
              <Text c="dimmed">You are not signed in.</Text>
              <Group>
                <Button onClick={() => void app.redirectToSignIn()}>Sign in</Button>
                <Button variant="default" onClick={() => void app.redirectToSignUp()}>Sign up</Button>
              </Group>
            </>
          )}
        </Stack>
      </Card>
      {user && (
        <Card withBorder padding="lg">
          <Suspense fallback={<Skeleton height={60} aria-label="Loading teams" />}><YourTeams user={user} /></Suspense>
        </Card>
      )}
    </Stack>
  );
}

/** The signed-in person's teams, each linking to its page in the account settings. */
function YourTeams({ user }: { user: CurrentUser }) {
  const app = useGatehouseApp();
  const teams = useTeams(user);
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">Your teams</Title>
      {teams.length === 0 ? (
        <Text size="sm" c="dimmed">
          You are in no team yet. <Anchor href={`${app.urls.accountSettings}#team-creation`}>Create a team</Anchor> or accept an invitation.
        </Text>
      ) : (
        <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} data-testid="your-teams">
          {teams.map((team) => (
            <Group component="li" key={team.id} gap="sm" wrap="nowrap">
              <TeamAvatar team={team} size={28} />
              <Anchor href={`${app.urls.accountSettings}#team-${team.id}`} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>{team.displayName}</Anchor>
            </Group>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

export function ProtectedPage() {
  const user = useUser({ or: 'redirect' });
  return (
    <Card withBorder padding="lg">
      <Stack>
        <Title order={1} size="h2">Protected page</Title>
        <Text>Only signed-in users see this page.</Text>
        <Text data-testid="protected-user">{user.primaryEmail ?? user.id}</Text>
        <Text size="sm" c="dimmed">User id: <Code>{user.id}</Code></Text>
      </Stack>
    </Card>
  );
}
