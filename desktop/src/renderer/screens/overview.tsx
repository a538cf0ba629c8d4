// Overview: key numbers (users, sign-ups of the last 7 days, active users today) and "connect your app":
// the project id and a publishable key with copy buttons, and setup snippets pointed at this service.
import { useState } from 'react';
import { Button, Card, Code, Group, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { CopyField } from '../components/copy-field';
import { ScreenHeader } from '../components/screen-header';
import { useMetrics } from '../hooks/use-admin-lists';
import { useAdminProject, useProjectContext } from '../hooks/use-project-context';
import { clientSnippets, sumLastDays, todayValue } from '../lib/overview-numbers';
import { t } from '../messages';
import { notifyError } from '../components/notify';

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <Card withBorder padding="md">
      <Text size="sm" c="dimmed">{label}</Text>
      <Text size="xl" fw={700} data-testid={`stat-${label}`}>{value}</Text>
    </Card>
  );
}

export function OverviewScreen() {
  const { app, connection } = useProjectContext();
  const project = useAdminProject();
  const metrics = useMetrics();
  const [publishableKey, setPublishableKey] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const snippets = clientSnippets({ serviceUrl: connection.serviceUrl, projectId: project.id, publishableClientKey: publishableKey ?? '<publishable client key>' });

  return (
    <Stack gap="lg">
      <ScreenHeader title={project.displayName} />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Stat label={t('overview.users')} value={metrics?.total_users ?? project.userCount} />
        <Stat label={t('overview.signUps')} value={sumLastDays(metrics?.daily_users, 7)} />
        <Stat label={t('overview.activeUsers')} value={todayValue(metrics?.daily_active_users)} />
      </SimpleGrid>
      <Card withBorder padding="lg">
        <Stack>
          <Title order={2} size="h4">{t('overview.connectTitle')}</Title>
          <CopyField label={t('overview.projectId')} value={project.id} testId="overview-project-id" />
          {publishableKey ? <CopyField label={t('overview.publishableKey')} value={publishableKey} testId="overview-publishable-key" /> : (
            <Group justify="space-between" wrap="wrap">
              <Text size="sm" c="dimmed">{t('overview.publishableKeyHint')}</Text>
              <Button variant="light" loading={creating} disabled={creating} onClick={async () => {
                setCreating(true);
                try {
                  const keys = await app.createInternalApiKey({
                    description: 'Publishable key (console overview)',
                    expiresAt: new Date(Date.now() + 365 * 86_400_000),
                    hasPublishableClientKey: true,
                    hasSecretServerKey: false,
                    hasSuperSecretAdminKey: false,
                  });
                  setPublishableKey(keys.publishableClientKey ?? null);
                  notifications.show({ color: 'green', message: t('keys.createdToast') });
                } catch (e) {
                  notifyError(e);
                } finally {
                  setCreating(false);
                }
              }}>{t('overview.createPublishableKey')}</Button>
            </Group>
          )}
          <Tabs defaultValue="gatehouse">
            <Tabs.List>
              <Tabs.Tab value="gatehouse">{t('overview.snippetGatehouse')}</Tabs.Tab>
              <Tabs.Tab value="stack">{t('overview.snippetStack')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="gatehouse" pt="sm"><Code block tabIndex={0}>{snippets.gatehouse}</Code></Tabs.Panel>
            <Tabs.Panel value="stack" pt="sm"><Code block tabIndex={0}>{snippets.stack}</Code></Tabs.Panel>
          </Tabs>
        </Stack>
      </Card>
    </Stack>
  );
}
