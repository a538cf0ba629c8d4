// Metrics: GET /internal/metrics as charts — sign-ups and active users per day over the last 31 UTC days, the
// sign-in methods in use, users by country where known, recent sign-ups and recently active users. Each chart
// has its numbers as text next to it (and a table of the days), an empty state when there is nothing to show,
// a skeleton while the figures load and an error state with a retry.
import '@mantine/charts/styles.css';
import { useState, type ReactNode } from 'react';
import { AreaChart, BarsList } from '@mantine/charts';
import { Avatar, Button, Card, Group, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { EmptyState } from '../components/empty-state';
import { ScreenBoundary } from '../components/screen-boundary';
import { ScreenHeader } from '../components/screen-header';
import { useMetrics, useRefetchMetrics } from '../hooks/use-admin-lists';
import { formatDateTime } from '../lib/format';
import {
  countryRows, dailyRows, isQuietSeries, latestValue, methodRows, recentUserRows, seriesTotal, unlocatedUsers,
  type MethodRow, type MetricsJson, type RecentUserRow,
} from '../lib/metrics-charts';
import type { DailyPoint } from '../lib/overview-numbers';
import { t } from '../messages';

/** Countries shown as bars; a line under them says how many more there are. */
const CHARTED_COUNTRIES = 10;

export function MetricsScreen() {
  const refetch = useRefetchMetrics();
  // "Try again" fetches again, then mounts the figures anew (the failed read would otherwise be shown again).
  const [attempt, setAttempt] = useState(0);
  const retry = () => void refetch().finally(() => setAttempt((n) => n + 1));
  const [refreshing, setRefreshing] = useState(false);
  // A failed refresh lands in the read, so the error state below shows it.
  const refresh = () => {
    setRefreshing(true);
    void refetch().finally(() => setRefreshing(false));
  };
  return (
    <Stack>
      <ScreenHeader title={t('metrics.title')}>
        <Button variant="default" leftSection={<IconRefresh size={16} aria-hidden />} loading={refreshing} disabled={refreshing} onClick={refresh}>{t('metrics.refresh')}</Button>
      </ScreenHeader>
      <ScreenBoundary key={attempt} fallback={<MetricsSkeleton />} onRetry={retry}>
        <MetricsBody />
      </ScreenBoundary>
    </Stack>
  );
}

function MetricsBody() {
  const m: MetricsJson = useMetrics();
  const methods = methodRows(m.login_methods);
  const countries = countryRows(m.users_by_country);
  return (
    <Stack gap="lg" data-testid="metrics">
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        <Stat label={t('metrics.totalUsers')} value={m.total_users} testId="metrics-total-users" />
        <Stat label={t('metrics.signUpsTotal')} value={seriesTotal(m.daily_users)} testId="metrics-sign-ups-total" />
        <Stat label={t('metrics.activeToday')} value={latestValue(m.daily_active_users)} testId="metrics-active-today" />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <DailyCard id="sign-ups" title={t('metrics.signUpsPerDay')} points={m.daily_users} empty={t('metrics.signUpsEmpty')} color="blue.6" />
        <DailyCard id="active" title={t('metrics.activePerDay')} points={m.daily_active_users} empty={t('metrics.activeEmpty')} color="teal.6" />
        <ChartCard id="methods" title={t('metrics.methods')}>
          {methods.length === 0 ? <EmptyState text={t('metrics.methodsEmpty')} /> : (
            <BarsList
              data={methods.map((r) => ({ name: methodName(r), value: r.count, color: 'indigo.2', textColor: 'dark.8' }))}
              barsLabel={t('metrics.method')} valueLabel={t('metrics.users')} autoContrast={false}
              getBarProps={(d) => ({ 'data-testid': 'metrics-bar', 'data-value': d.value } as React.ComponentProps<'div'>)}
            />
          )}
        </ChartCard>
        <ChartCard id="countries" title={t('metrics.countries')}>
          {countries.length === 0 ? <EmptyState text={t('metrics.countriesEmpty')} /> : (
            <Stack gap="sm">
              <BarsList
                data={countries.slice(0, CHARTED_COUNTRIES).map((r) => ({ name: r.name, value: r.count, color: 'grape.2', textColor: 'dark.8' }))}
                barsLabel={t('metrics.country')} valueLabel={t('metrics.users')} autoContrast={false}
                getBarProps={(d) => ({ 'data-testid': 'metrics-bar', 'data-value': d.value } as React.ComponentProps<'div'>)}
              />
              {countries.length > CHARTED_COUNTRIES && <Text size="sm" c="dimmed">{t('metrics.moreCountries', { count: countries.length - CHARTED_COUNTRIES })}</Text>}
              <Text size="sm" c="dimmed" data-testid="metrics-unlocated">{t('metrics.unlocated', { count: unlocatedUsers(m.total_users, countries) })}</Text>
            </Stack>
          )}
        </ChartCard>
        <ChartCard id="recent-sign-ups" title={t('metrics.recentSignUps')}>
          <RecentUsers rows={recentUserRows(m.recently_registered, 'registered')} empty={t('metrics.recentSignUpsEmpty')} label={t('metrics.signedUp')} />
        </ChartCard>
        <ChartCard id="recently-active" title={t('metrics.recentlyActive')}>
          <RecentUsers rows={recentUserRows(m.recently_active, 'active')} empty={t('metrics.recentlyActiveEmpty')} label={t('metrics.lastActive')} />
        </ChartCard>
      </SimpleGrid>
    </Stack>
  );
}

function methodName(r: MethodRow): string {
  return r.kind === 'oauth' ? r.providerName! : t(`metrics.method.${r.kind}`);
}

function Stat({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <Card withBorder padding="md">
      <Text size="sm" c="dimmed">{label}</Text>
      <Text size="xl" fw={700} data-testid={testId}>{value}</Text>
    </Card>
  );
}

function ChartCard({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="lg" data-testid={`metrics-${id}`} component="section" aria-labelledby={`metrics-${id}-title`}>
      <Stack gap="md">
        <Title order={2} size="h4" id={`metrics-${id}-title`}>{title}</Title>
        {children}
      </Stack>
    </Card>
  );
}

function DailyCard({ id, title, points, empty, color }: { id: string; title: string; points: DailyPoint[]; empty: string; color: string }) {
  const rows = dailyRows(points);
  return (
    <ChartCard id={id} title={title}>
      {isQuietSeries(points) ? <EmptyState text={empty} /> : (
        <>
          <Text size="sm" c="dimmed">{t('metrics.seriesSummary', { total: seriesTotal(points), days: rows.length })}</Text>
          <div role="img" aria-label={t('metrics.chartLabel', { title, total: seriesTotal(points), days: rows.length })}>
            <AreaChart
              h={200} data={rows} dataKey="label" series={[{ name: 'value', label: title, color }]}
              curveType="monotone" withDots={false} tickLine="none" gridAxis="y"
              yAxisProps={{ allowDecimals: false, width: 32 }} xAxisProps={{ minTickGap: 24 }}
            />
          </div>
          <details>
            <summary><Text span size="sm">{t('metrics.showDays')}</Text></summary>
            <Table.ScrollContainer minWidth={240} mah={240} mt="xs">
              <Table withRowBorders={false} verticalSpacing={2} aria-label={title} data-testid={`metrics-${id}-days`}>
                <Table.Thead><Table.Tr><Table.Th>{t('metrics.day')}</Table.Th><Table.Th ta="right">{t('metrics.count')}</Table.Th></Table.Tr></Table.Thead>
                <Table.Tbody>
                  {rows.map((r) => <Table.Tr key={r.date} data-date={r.date}><Table.Td>{r.date}</Table.Td><Table.Td ta="right">{r.value}</Table.Td></Table.Tr>)}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </details>
        </>
      )}
    </ChartCard>
  );
}

function RecentUsers({ rows, empty, label }: { rows: RecentUserRow[]; empty: string; label: string }) {
  if (rows.length === 0) return <EmptyState text={empty} />;
  return (
    <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {rows.map((u) => (
        <Group key={u.id} component="li" gap="sm" wrap="nowrap" data-testid="metrics-user" data-user-id={u.id}>
          <Avatar src={u.imageUrl} alt="" radius="xl" size="md">{u.title.slice(0, 1).toUpperCase()}</Avatar>
          <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
            <Text size="sm" fw={600} truncate>{u.title}</Text>
            {u.subtitle && <Text size="xs" c="dimmed" truncate>{u.subtitle}</Text>}
            {u.at && <Text size="xs" c="dimmed">{label} {formatDateTime(u.at)}</Text>}
          </Stack>
        </Group>
      ))}
    </Stack>
  );
}

function MetricsSkeleton() {
  return (
    <Stack gap="lg" role="status" aria-busy="true" aria-label={t('common.loading')} data-testid="skeleton">
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        {[0, 1, 2].map((i) => <Skeleton key={i} height={76} radius="md" />)}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {[0, 1, 2, 3].map((i) => <Skeleton key={i} height={280} radius="md" />)}
      </SimpleGrid>
    </Stack>
  );
}
