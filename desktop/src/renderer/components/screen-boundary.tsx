// Every screen's frame: a skeleton while its data loads, an error state (with retry) when loading fails.
import { Component, Suspense, type ReactNode } from 'react';
import { Alert, Button, Skeleton, Stack } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { t } from '../messages';
import { ErrorMessage } from './error-message';

export function ListSkeleton({ rows = 4 }: { rows?: number }) {
  return (
    <Stack gap="sm" role="status" aria-busy="true" aria-label={t('common.loading')} data-testid="skeleton">
      <Skeleton height={28} width="40%" />
      {Array.from({ length: rows }, (_, i) => <Skeleton key={i} height={44} />)}
    </Stack>
  );
}

class ErrorBoundary extends Component<{ children: ReactNode; onRetry?: () => void }, { error: unknown }> {
  state: { error: unknown } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  render() {
    if (!this.state.error) return this.props.children;
    return (
      <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title={t('common.errorTitle')} role="alert">
        <Stack gap="sm" align="flex-start">
          <span data-testid="screen-error"><ErrorMessage error={this.state.error} /></span>
          <Button size="xs" variant="default" onClick={() => { this.setState({ error: null }); this.props.onRetry?.(); }}>{t('common.retry')}</Button>
        </Stack>
      </Alert>
    );
  }
}

export function ScreenBoundary({ children, fallback, onRetry }: { children: ReactNode; fallback?: ReactNode; onRetry?: () => void }) {
  return (
    <ErrorBoundary onRetry={onRetry}>
      <Suspense fallback={fallback ?? <ListSkeleton />}>{children}</Suspense>
    </ErrorBoundary>
  );
}
