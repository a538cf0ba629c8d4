// The demo: a header with <UserButton>, a landing page, a protected page and every auth page under /handler,
// all through the account kit's public exports. The demo's own pages are a lazy chunk, so the auth pages load
// only what they need.
import { Suspense, lazy } from 'react';
import { Anchor, Badge, Box, Group, Skeleton, Stack } from '@mantine/core';
import { GatehouseHandler, useGatehouseApp } from '@gatehouse/account-kit';

const Pages = {
  landing: lazy(() => import('./pages').then((m) => ({ default: m.LandingPage }))),
  protected: lazy(() => import('./pages').then((m) => ({ default: m.ProtectedPage }))),
  header: lazy(() => import('./header-user').then((m) => ({ default: m.HeaderUser }))),
};

export function DemoApp({ impersonating = false }: { impersonating?: boolean }) {
  const app = useGatehouseApp();
  const path = window.location.pathname;
  const inHandler = path === app.urls.handler || path.startsWith(app.urls.handler + '/');
  const Page = path === '/protected' ? Pages.protected : Pages.landing;
  return (
    <Box>
      <Group component="header" h={56} px="md" justify="space-between" wrap="nowrap" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Group gap="sm" wrap="nowrap">
          <Anchor href="/" underline="never" c="var(--mantine-color-text)" fw={700}>Gatehouse demo</Anchor>
          {impersonating && <Badge color="red.9" variant="filled" data-testid="impersonation-label">Impersonation</Badge>}
        </Group>
        {!inHandler && <Suspense fallback={<Skeleton circle height={34} />}><Pages.header /></Suspense>}
      </Group>
      {inHandler ? <GatehouseHandler /> : (
        <Stack maw={720} mx="auto" p="md" py="lg" component="main">
          <Suspense fallback={<Skeleton height={180} aria-label="Loading" />}><Page /></Suspense>
        </Stack>
      )}
    </Box>
  );
}
