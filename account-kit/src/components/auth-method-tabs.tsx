// Email code and password side by side, for a project that enables both (a lazy chunk of the auth page).
import { Tabs } from '@mantine/core';
import { useTranslate } from '../context';
import { CredentialSignIn } from './credential-sign-in';
import { CredentialSignUp } from './credential-sign-up';
import { MagicLinkForm } from './magic-link-form';

export function AuthMethodTabs({ type }: { type: 'sign-in' | 'sign-up' }) {
  const t = useTranslate();
  return (
    <Tabs defaultValue="magic-link" keepMounted={false}>
      <Tabs.List grow mb="md">
        <Tabs.Tab value="magic-link">{t('signIn.emailCodeTab')}</Tabs.Tab>
        <Tabs.Tab value="password">{t('signIn.passwordTab')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="magic-link"><MagicLinkForm /></Tabs.Panel>
      <Tabs.Panel value="password">{type === 'sign-in' ? <CredentialSignIn /> : <CredentialSignUp />}</Tabs.Panel>
    </Tabs>
  );
}
