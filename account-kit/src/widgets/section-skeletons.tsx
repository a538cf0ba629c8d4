// What each settings section shows while its data loads (client-library §7.1–§7.7).
import { Skeleton, Stack } from '@mantine/core';
import { useTranslate } from '../context';

export type SkeletonKind = 'default' | 'auth' | 'sessions' | 'team' | 'table';

export function SectionSkeleton({ kind = 'default' }: { kind?: SkeletonKind }) {
  const t = useTranslate();
  return (
    <Stack gap="sm" aria-busy="true" aria-label={t('settings.loading')} role="status">
      {kind === 'auth' && [0, 1, 2, 3].map((i) => <Skeleton key={i} height={36} />)}
      {kind === 'sessions' && <Skeleton height={300} />}
      {kind === 'team' && (
        <>
          {[0, 1, 2].map((i) => <Skeleton key={i} height={36} />)}
          <Skeleton height={200} />
        </>
      )}
      {kind === 'table' && (
        <>
          <Skeleton height={36} width="40%" />
          <Skeleton height={160} />
        </>
      )}
      {kind === 'default' && (
        <>
          <Skeleton height={20} width="30%" />
          <Skeleton height={36} />
          <Skeleton height={20} width="30%" />
          <Skeleton height={60} circle />
        </>
      )}
    </Stack>
  );
}
