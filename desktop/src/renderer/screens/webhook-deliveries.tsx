// One endpoint's recent deliveries (event, status, attempts, next retry, response code), newest first, of one event
// type and/or status when chosen, read again while they change; "Send test event" for the endpoint and "Retry now"
// for a delivery.
import { useState } from 'react';
import { Alert, Button, Card, Group, Select, Stack, Table, Text, Title, useMatches } from '@mantine/core';
import { IconRefresh, IconSend } from '@tabler/icons-react';
import type { WebhookDelivery, WebhookEndpoint } from '@gatehouse/shared/client';
import { EmptyState } from '../components/empty-state';
import { ListSkeleton } from '../components/screen-boundary';
import { StatusBadge } from '../components/status-badge';
import { useProjectContext } from '../hooks/use-project-context';
import { useWebhookDeliveries } from '../hooks/use-webhook-deliveries';
import { formatDateTime } from '../lib/format';
import { DELIVERY_FILTER_EVENTS, DELIVERY_FILTER_STATUSES, DELIVERY_STATE_COLOR, canRetryNow, deliveryFilter, deliveryState, responseSummary } from '../lib/webhooks';
import { t } from '../messages';
import { ErrorMessage } from '../components/error-message';
import { runAction } from '../components/notify';

export function WebhookDeliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { app } = useProjectContext();
  // '' is "any": the list asks the service for the chosen event type and status only.
  const [eventType, setEventType] = useState('');
  const [status, setStatus] = useState('');
  const filtered = eventType !== '' || status !== '';
  const deliveries = useWebhookDeliveries(app, endpoint.id, deliveryFilter(eventType, status));
  const [sending, setSending] = useState(false);
  const [retrying, setRetrying] = useState<string | null>(null);
  // On a phone the columns after the status fold into it (DeliveryRow): nothing to scroll sideways.
  const tableMinWidth = useMatches({ base: 0, sm: 760 });
  const act = async (run: () => Promise<unknown>, done: string) => {
    if (await runAction(run, done)) deliveries.reload();
  };
  return (
    <Card withBorder padding={0} component="section" aria-labelledby="webhook-deliveries-title" data-testid="webhook-deliveries">
      <Stack gap={0}>
        <Group justify="space-between" wrap="wrap" gap="sm" p="md">
          <Stack gap={0} style={{ minWidth: 0, flex: '1 1 240px' }}>
            <Title order={2} size="h4" id="webhook-deliveries-title">{t('webhooks.deliveries')}</Title>
            <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>{endpoint.url}</Text>
          </Stack>
          <Group gap="xs">
            <Button size="xs" variant="default" leftSection={<IconRefresh size={14} aria-hidden />} onClick={deliveries.reload}>{t('webhooks.refresh')}</Button>
            <Button size="xs" leftSection={<IconSend size={14} aria-hidden />} loading={sending} disabled={sending || !endpoint.enabled}
              onClick={async () => {
                setSending(true);
                await act(() => app.sendTestWebhookEvent(endpoint.id), t('webhooks.testSent'));
                setSending(false);
              }}>{t('webhooks.sendTest')}</Button>
          </Group>
        </Group>
        <Group gap="sm" px="md" pb="md" wrap="wrap" data-testid="delivery-filters">
          <Select label={t('webhooks.filterEvent')} value={eventType} onChange={(v) => setEventType(v ?? '')} allowDeselect={false} style={{ flex: '1 1 200px' }}
            data={[{ value: '', label: t('webhooks.filterAnyEvent') }, ...DELIVERY_FILTER_EVENTS.map((e) => ({ value: e, label: e }))]} />
          <Select label={t('webhooks.filterStatus')} value={status} onChange={(v) => setStatus(v ?? '')} allowDeselect={false} style={{ flex: '1 1 160px' }}
            data={[{ value: '', label: t('webhooks.filterAnyStatus') }, ...DELIVERY_FILTER_STATUSES.map((s) => ({ value: s, label: t(`webhooks.filter.${s}`) }))]} />
        </Group>
        {!endpoint.enabled && <Alert color="gray" mx="md" mb="md">{t('webhooks.disabledHint')}</Alert>}
        {deliveries.status === 'error' ? (
          <Alert color="red" m="md" role="alert" title={t('common.errorTitle')}>
            <Stack gap="xs" align="flex-start">
              <span data-testid="deliveries-error"><ErrorMessage error={deliveries.error} /></span>
              <Button size="xs" variant="default" onClick={deliveries.reload}>{t('common.retry')}</Button>
            </Stack>
          </Alert>
        ) : deliveries.status === 'loading' ? <Stack p="md"><ListSkeleton rows={3} /></Stack>
          : deliveries.value.length === 0 ? <Stack p="md"><EmptyState text={t(filtered ? 'webhooks.deliveriesNoneMatch' : 'webhooks.deliveriesEmpty')} /></Stack> : (
          <Table.ScrollContainer minWidth={tableMinWidth}>
            <Table verticalSpacing="sm" horizontalSpacing="md" aria-labelledby="webhook-deliveries-title">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('webhooks.event')}</Table.Th>
                  <Table.Th>{t('webhooks.status')}</Table.Th>
                  <Table.Th ta="right" visibleFrom="sm">{t('webhooks.attempts')}</Table.Th>
                  <Table.Th visibleFrom="sm">{t('webhooks.nextRetry')}</Table.Th>
                  <Table.Th visibleFrom="sm">{t('webhooks.response')}</Table.Th>
                  <Table.Th visibleFrom="sm" />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {deliveries.value.map((d) => (
                  <DeliveryRow key={d.id} delivery={d} busy={retrying === d.id || !endpoint.enabled} onRetry={async () => {
                    setRetrying(d.id);
                    await act(() => app.retryWebhookDelivery(endpoint.id, d.id), t('webhooks.retried'));
                    setRetrying(null);
                  }} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Card>
  );
}

function DeliveryRow({ delivery: d, busy, onRetry }: { delivery: WebhookDelivery; busy: boolean; onRetry(): void }) {
  const state = deliveryState(d);
  const response = responseSummary(d);
  const nextRetry = d.nextAttemptAt && state === 'retrying' ? formatDateTime(d.nextAttemptAt) : '—';
  const retryButton = canRetryNow(d) && (
    <Button size="xs" variant="default" disabled={busy} onClick={onRetry} aria-label={`${t('webhooks.retryNow')}: ${d.eventType} ${formatDateTime(d.createdAt)}`}>
      {t('webhooks.retryNow')}
    </Button>
  );
  return (
    <Table.Tr data-testid="webhook-delivery" data-delivery-id={d.id} data-state={state}>
      <Table.Td>
        <Text size="sm" ff="monospace" fw={600}>{d.eventType}</Text>
        <Text size="xs" c="dimmed">{formatDateTime(d.createdAt)}</Text>
      </Table.Td>
      <Table.Td>
        <StatusBadge color={DELIVERY_STATE_COLOR[state]}>{t(`webhooks.state.${state}`)}</StatusBadge>
        {/* A phone has no room for the columns below: the same facts under the status, and the retry button. */}
        <Stack gap={4} mt={4} hiddenFrom="sm" align="flex-start">
          <Text size="xs" c="dimmed">
            {[`${t('webhooks.attempts')}: ${d.attempts}`, nextRetry !== '—' && `${t('webhooks.nextRetry')}: ${nextRetry}`, response.code && `${t('webhooks.response')}: ${response.code}`].filter(Boolean).join(' · ')}
          </Text>
          {retryButton}
        </Stack>
      </Table.Td>
      <Table.Td ta="right" visibleFrom="sm" data-testid="delivery-attempts">{d.attempts}</Table.Td>
      <Table.Td visibleFrom="sm"><Text size="sm" data-testid="delivery-next-retry">{nextRetry}</Text></Table.Td>
      <Table.Td visibleFrom="sm">
        <Text size="sm" ff="monospace" data-testid="delivery-response">{response.code ?? '—'}</Text>
        {response.error && <Text size="xs" c="dimmed" lineClamp={2} title={response.error}>{response.error}</Text>}
      </Table.Td>
      <Table.Td ta="right" visibleFrom="sm">{retryButton}</Table.Td>
    </Table.Tr>
  );
}
