// Shown when the service did not give the demo a key (production: the internal project's keys are shown
// once and never stored in clear): the demo asks for a project id and publishable client key.
import { Button, Card, MantineProvider, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { gatehouseTheme } from '@gatehouse/account-kit';

export function ConnectProject() {
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { projectId: 'internal', key: '' },
    validate: { projectId: (v) => (v.trim() ? null : 'Enter a project id'), key: (v) => (v.trim() ? null : 'Enter the publishable client key') },
  });
  return (
    <MantineProvider theme={gatehouseTheme} defaultColorScheme="auto">
      <Stack maw={440} mx="auto" p="md" mt="10vh" component="main">
        <Card withBorder padding="lg">
          <form onSubmit={form.onSubmit(({ projectId, key }) => {
            const url = new URL(window.location.href);
            url.searchParams.set('project_id', projectId.trim());
            url.searchParams.set('publishable_client_key', key.trim());
            window.location.assign(url.toString());
          })}>
            <Stack>
              <Title order={1} size="h3">Connect the demo to a project</Title>
              <Text size="sm" c="dimmed">This service did not give the demo a key. Enter a project id and its publishable client key.</Text>
              <TextInput label="Project id" {...form.getInputProps('projectId')} key={form.key('projectId')} />
              <TextInput label="Publishable client key" autoFocus {...form.getInputProps('key')} key={form.key('key')} />
              <Button type="submit">Open the demo</Button>
            </Stack>
          </form>
        </Card>
      </Stack>
    </MantineProvider>
  );
}
