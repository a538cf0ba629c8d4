// An endpoint's deliveries, read again on a timer while the screen is open: the worker changes their state
// (sent, retrying, failed) and new events arrive without the console doing anything.
import { useEffect } from 'react';
import type { GatehouseAdminApp, WebhookDelivery, WebhookDeliveryFilter } from '@gatehouse/shared/client';
import { deliveriesPollMs } from '../lib/webhooks';
import { useLoader, type Loaded } from './use-loader';

export function useWebhookDeliveries(app: GatehouseAdminApp, endpointId: string, filter: WebhookDeliveryFilter = {}): Loaded<WebhookDelivery[]> & { reload(): void } {
  const { eventType, status } = filter;
  const deliveries = useLoader(() => app.listWebhookDeliveries(endpointId, { eventType, status }), [app, endpointId, eventType, status]);
  const { reload } = deliveries;
  const list = deliveries.status === 'ok' ? deliveries.value : null;
  const error = deliveries.status === 'error' ? deliveries.error : null;
  useEffect(() => {
    // After a failed read, keep trying at the slow pace; the error is shown meanwhile.
    const timer = setTimeout(reload, list ? deliveriesPollMs(list) : 5_000);
    return () => clearTimeout(timer);
  }, [list, error, reload]);
  return deliveries;
}
