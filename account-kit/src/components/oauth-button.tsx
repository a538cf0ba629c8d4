// One button per OAuth provider, with its logo; a click starts the client library's OAuth flow (§5).
import { useState } from 'react';
import { Button, Stack } from '@mantine/core';
import {
  IconBrandApple, IconBrandBitbucket, IconBrandDiscord, IconBrandFacebook, IconBrandGithub, IconBrandGitlab,
  IconBrandGoogle, IconBrandLinkedin, IconBrandSpotify, IconBrandWindows, IconBrandX, IconKey,
} from '@tabler/icons-react';
import { useGatehouseApp, useTranslate } from '../context';
import { oauthProviderName, orderProviders } from '../lib/oauth-providers';

const LOGOS: Record<string, typeof IconKey> = {
  google: IconBrandGoogle, github: IconBrandGithub, microsoft: IconBrandWindows, apple: IconBrandApple,
  facebook: IconBrandFacebook, discord: IconBrandDiscord, gitlab: IconBrandGitlab, bitbucket: IconBrandBitbucket,
  linkedin: IconBrandLinkedin, spotify: IconBrandSpotify, x: IconBrandX,
};

export function OAuthButton({ provider, type = 'sign-in' }: { provider: string; type?: 'sign-in' | 'sign-up' }) {
  const app = useGatehouseApp();
  const t = useTranslate();
  const [busy, setBusy] = useState(false);
  const Logo = LOGOS[provider] ?? IconKey;
  const label = t(type === 'sign-up' ? 'signUp.withProvider' : 'signIn.withProvider', { provider: oauthProviderName(provider) });
  return (
    <Button
      variant="default"
      fullWidth
      leftSection={<Logo size={18} aria-hidden />}
      loading={busy}
      onClick={() => {
        setBusy(true);
        // The page navigates away; the promise never resolves.
        app.signInWithOAuth(provider).catch(() => setBusy(false));
      }}
    >
      {label}
    </Button>
  );
}

export function OAuthButtonGroup({ providers, type }: { providers: readonly string[]; type?: 'sign-in' | 'sign-up' }) {
  return (
    <Stack gap="xs">
      {orderProviders(providers).map((id) => <OAuthButton key={id} provider={id} type={type} />)}
    </Stack>
  );
}
