// {handler}/forgot-password: send a reset email (the result is not shown, so the page tells nothing about
// which addresses have accounts), then "Email sent!".
import { useState } from 'react';
import { Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useGatehouseApp, useTranslate } from '../context';
import { AuthCard, MessageCard } from '../components/message-card';
import { useAuthSubmit } from '../components/use-auth-submit';
import { useRuleValidator } from '../components/use-form-rules';
import { FormError } from '../components/form-error';
import { useUser } from '../hooks/use-user';
import { signInEmailRule } from '../lib/validation';
import { registerEnglish } from '../messages';
import { enPages } from '../messages/en-pages';

registerEnglish(enPages);

export function ForgotPasswordPage() {
  const app = useGatehouseApp();
  const t = useTranslate();
  const user = useUser();
  const rule = useRuleValidator();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm({ mode: 'uncontrolled', initialValues: { email: '' }, validate: { email: rule(signInEmailRule) } });
  const { busy, formError, submit } = useAuthSubmit(form, { email: 'email' });

  if (user) return <MessageCard title={t('alreadySignedIn.title')} primaryAction={{ label: t('common.goHome'), onClick: () => void app.redirectToHome() }}>{t('alreadySignedIn.text')}</MessageCard>;
  if (sentTo) return <MessageCard title={t('forgot.sentTitle')} role="status">{t('forgot.sentText', { email: sentTo })}</MessageCard>;
  return (
    <AuthCard>
      <form noValidate onSubmit={submit(async ({ email }) => {
        await app.sendForgotPasswordEmail(email);
        setSentTo(email);
      })}>
        <Stack gap="md">
          <Stack gap={4} align="center">
            <Title order={1} size="h3">{t('forgot.title')}</Title>
            <Text size="sm" c="dimmed">
              {t('forgot.noNeed')}{' '}
              <Anchor href={app.urls.signIn} onClick={(e) => { e.preventDefault(); void app.redirectToSignIn(); }}>{t('common.signIn')}</Anchor>
            </Text>
          </Stack>
          <FormError message={formError} />
          <TextInput label={t('forgot.emailLabel')} type="email" autoComplete="email" autoFocus {...form.getInputProps('email')} key={form.key('email')} />
          <Button type="submit" loading={busy} fullWidth>{t('forgot.submit')}</Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
