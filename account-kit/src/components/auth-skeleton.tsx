// What an auth page shows while its data (the project config, the user) loads.
import { Skeleton, Stack } from '@mantine/core';
import { useTranslate } from '../context';
import { AuthCard } from './message-card';

export function AuthSkeleton() {
  const t = useTranslate();
  return (
    <AuthCard>
      <Stack gap="md" aria-busy="true" aria-label={t('common.loading')}>
        <Skeleton height={28} width="70%" mx="auto" />
        <Skeleton height={14} width="50%" mx="auto" />
        <Skeleton height={36} />
        <Skeleton height={36} />
        <Skeleton height={36} />
      </Stack>
    </AuthCard>
  );
}
