// The demo's own pages: a landing page showing the signed-in state and a protected page (useUser({or: 'redirect'})).
import { Button, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useGatehouseApp, useProject, useUser } from '@gatehouse/account-kit';

export function LandingPage() {
  const app = useGatehouseApp();
  const user = useUser();
  const project = useProject();
  return (
    <Card withBorder padding="lg">
      <Stack>
        <Title order={1} size="h2">{project.displayName}</Title>
        {user ? (
          <>
            <Text data-testid="signed-in-as">Signed in as <b>{user.primaryEmail ?? user.displayName ?? user.id}</b></Text>
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
