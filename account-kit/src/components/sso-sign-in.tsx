// "Continue with SSO": the work address first; its verified domain names the organization's connection, and the
// browser goes to that identity provider (client library `signInWithSso`). An address without SSO is told so.
import { Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { SsoNotConfigured } from '@gatehouse/shared/known-errors/team-enterprise';
import { useGatehouseApp, useTranslate } from '../context';
import { signInEmailRule } from '../lib/validation';
import { FormError } from './form-error';
import { useAuthSubmit } from './use-auth-submit';
import { useRuleValidator } from './use-form-rules';

export function SsoSignIn({ onBack }: { onBack: () => void }) {
  const app = useGatehouseApp();
  const t = useTranslate();
  const rule = useRuleValidator();
  const form = useForm({ mode: 'uncontrolled', initialValues: { email: '' }, validate: { email: rule(signInEmailRule) } });
  const { busy, formError, submit } = useAuthSubmit(form, { email: 'email' });
  return (
    <form noValidate onSubmit={submit(async ({ email }) => {
      const connection = await app.getSsoConnectionForEmail(email);
      if (!connection) return new SsoNotConfigured(email);
      await app.signInWithSso({ email });
    })}>
      <Stack gap="sm">
        <Stack gap={4}>
          <Title order={2} size="h4">{t('sso.title')}</Title>
          <Text size="sm" c="dimmed">{t('sso.text')}</Text>
        </Stack>
        <FormError message={formError} />
        <TextInput label={t('common.email')} type="email" autoComplete="email" autoFocus {...form.getInputProps('email')} key={form.key('email')} />
        <Button type="submit" loading={busy} fullWidth>{t('sso.submit')}</Button>
        <Anchor component="button" type="button" size="sm" onClick={onBack} ta="center">{t('sso.back')}</Anchor>
      </Stack>
    </form>
  );
}

