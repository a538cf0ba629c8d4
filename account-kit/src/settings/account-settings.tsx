// {handler}/account-settings (client-library §7) and <AccountSettings> for host apps. This module is a lazy
// chunk of the handler; its stylesheet (settings.css) loads with it.
import './settings.css';
import { Flex, Skeleton, Stack } from '@mantine/core';
import { useTranslate } from '../context';
import { LoadBoundary } from '../components/load-boundary';
import { SectionSkeleton } from '../widgets/section-skeletons';
import { SettingsFrame, type ExtraSettingsItem, type SettingsFrameProps } from './frame';

export type { ExtraSettingsItem };
export type AccountSettingsProps = SettingsFrameProps;

/** The account settings page: requires a signed-in user (redirects to sign-in otherwise). */
export function AccountSettings(props: AccountSettingsProps) {
  return (
    <LoadBoundary fallback={<FrameSkeleton />}>
      <SettingsFrame {...props} />
    </LoadBoundary>
  );
}

export function AccountSettingsPage() {
  return <AccountSettings fullPage />;
}

function FrameSkeleton() {
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
