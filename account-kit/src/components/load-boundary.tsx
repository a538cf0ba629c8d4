// Suspense + error boundary for a screen: a skeleton while its data loads, a card with "Try again" when the
// load fails (the service unreachable, a misconfigured project).
import { Component, Suspense, type ReactNode } from 'react';
import { useTranslate } from '../context';
import { MessageCard } from './message-card';
import { ErrorMessage } from './error-message';

export function LoadBoundary({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  return (
    <ErrorBoundary>
      <Suspense fallback={fallback}>{children}</Suspense>
    </ErrorBoundary>
  );
}

class ErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  state: { error: unknown } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  render() {
    if (this.state.error) return <LoadError error={this.state.error} onRetry={() => this.setState({ error: null })} />;
    return this.props.children;
  }
}

function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const t = useTranslate();
  return (
    <MessageCard title={t('error.loadFailed')} role="alert" primaryAction={{ label: t('common.tryAgain'), onClick: onRetry }}>
      <ErrorMessage error={error} />
    </MessageCard>
  );
}
