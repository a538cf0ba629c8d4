// The OAuth and passkey buttons of an auth page, and the "or" divider before its forms (a lazy chunk of the page).
import { Divider, Stack } from '@mantine/core';
import { useTranslate } from '../context';
import { OAuthButtonGroup } from './oauth-button';
import { PasskeyButton } from './passkey-button';

export function AuthButtons({ oauthProviders, passkey, type, divider }: {
  oauthProviders: readonly string[];
  passkey: boolean;
  type: 'sign-in' | 'sign-up';
  /** The page has forms after the buttons. */
  divider: boolean;
}) {
  const t = useTranslate();
  return (
    <>
      <Stack gap="xs">
        <OAuthButtonGroup providers={oauthProviders} type={type} />
        {passkey && <PasskeyButton />}
      </Stack>
      {divider && <Divider label={t('common.or')} labelPosition="center" />}
    </>
  );
}
