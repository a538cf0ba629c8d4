// Each settings item loads on its own: a skeleton while its data loads, an error with "Try again" if it fails.
import { Component, Suspense, type ReactNode } from 'react';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { useTranslate } from '../context';
import { SectionSkeleton, type SkeletonKind } from '../widgets/section-skeletons';
import { ErrorMessage } from '../components/error-message';

export function SectionBoundary({ skeleton = 'default', children }: { skeleton?: SkeletonKind; children: ReactNode }) {
  return (
    <SectionErrorBoundary>
      <Suspense fallback={<SectionSkeleton kind={skeleton} />}>{children}</Suspense>
    </SectionErrorBoundary>
  );
}

class SectionErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  state: { error: unknown } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  render() {
    if (this.state.error) return <SectionError error={this.state.error} onRetry={() => this.setState({ error: null })} />;
    return this.props.children;
  }
}

export function SectionError({ error, onRetry, title }: { error: unknown; onRetry: () => void; title?: string }) {
  const t = useTranslate();
  return (
    <Alert color="red" variant="light" role="alert" title={title ?? t('settings.sectionFailed')}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm"><ErrorMessage error={error} /></Text>
        <Button size="xs" variant="default" onClick={onRetry}>{t('common.tryAgain')}</Button>
      </Stack>
    </Alert>
  );
}
