// What the settings page shows while the user, the project and the teams load.
import { Flex, Skeleton, Stack } from '@mantine/core';
import { useTranslate } from '../context';
import { SectionSkeleton } from '../widgets/section-skeletons';

export function FrameSkeleton() {
  const t = useTranslate();
  return (
    <Flex gap="xl" px="md" py="lg" maw={1080} mx="auto" aria-busy="true" aria-label={t('settings.loading')}>
      <Stack w={200} gap="xs" visibleFrom="xs">
        <Skeleton height={24} width="80%" />
        {[0, 1, 2, 3].map((i) => <Skeleton key={i} height={32} />)}
      </Stack>
      <Stack style={{ flex: 1 }} maw={800} gap="md">
        <Skeleton height={28} width="40%" />
        <SectionSkeleton />
      </Stack>
    </Flex>
  );
}
