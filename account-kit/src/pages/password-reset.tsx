// {handler}/password-reset: the link's code is checked first (memoised per code), then the new password.
import { useState } from 'react';
import { Button, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useGatehouseApp, useTranslate } from '../context';
import { AuthSkeleton } from '../components/auth-skeleton';
import { AuthCard, MessageCard } from '../components/message-card';
import { PasswordInput } from '../components/password-input';
import { NewPasswordInput } from '../components/new-password-input';
import { useAuthSubmit } from '../components/use-auth-submit';
import { useRuleValidator } from '../components/use-form-rules';
import { FormError } from '../components/form-error';
import { newPasswordRule, repeatPasswordRule } from '../lib/validation';
import { codeFromSearch, codeProblem } from '../lib/verification';
import { useOnce } from '../hooks/use-once';
import { registerEnglish } from '../messages';
import { enPages } from '../messages/en-pages';

registerEnglish(enPages);

export function PasswordResetPage({ search = window.location.search }: { search?: string }) {
  const app = useGatehouseApp();
  const t = useTranslate();
  const code = codeFromSearch(search);
  const check = useOnce(code && `reset-check:${code}`, () => app.verifyPasswordResetCode(code!));
  const [outcome, setOutcome] = useState<'done' | 'failed' | null>(null);

  if (!code) return <MessageCard title={t('reset.invalidTitle')} role="alert">{t('reset.invalidText')}</MessageCard>;
  if (check.status === 'pending') return <AuthSkeleton />;
  if (check.status === 'failed' || check.value.status === 'error') {
    const problem = check.status === 'done' && check.value.status === 'error' ? codeProblem(check.value.error) : 'unknown';
    if (problem === 'expired') return <MessageCard title={t('reset.expiredTitle')} role="alert">{t('reset.expiredText')}</MessageCard>;
    if (problem === 'used') return <MessageCard title={t('reset.usedTitle')} role="alert">{t('reset.usedText')}</MessageCard>;
    return <MessageCard title={t('reset.invalidTitle')} role="alert">{t('reset.invalidText')}</MessageCard>;
  }
  if (outcome === 'failed') return <MessageCard title={t('reset.failedTitle')} role="alert">{t('reset.failedText')}</MessageCard>;
  if (outcome === 'done') {
    return (
      <MessageCard title={t('reset.successTitle')} role="status" primaryAction={{ label: t('common.signIn'), onClick: () => void app.redirectToSignIn({ noRedirectBack: true }) }}>
        {t('reset.successText')}
      </MessageCard>
    );
  }
  return <ResetForm code={code} onDone={setOutcome} />;
}

function ResetForm({ code, onDone }: { code: string; onDone: (o: 'done' | 'failed') => void }) {
  const app = useGatehouseApp();
  const t = useTranslate();
  const rule = useRuleValidator();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { password: '', repeatPassword: '' },
    validate: {
      password: rule(newPasswordRule),
      repeatPassword: (value, values) => rule(repeatPasswordRule(values.password))(value),
    },
  });
  const { busy, formError, submit } = useAuthSubmit(form, { password: 'password' });
  return (
    <AuthCard>
      <form noValidate onSubmit={submit(async ({ password }) => {
        const result = await app.resetPassword({ code, password });
        if (result.status === 'error') {
          // The service's password rules (e.g. a common password) are a fixable field error, not a dead link.
          if (result.error.errorCode?.startsWith('PASSWORD')) return result.error;
          return onDone('failed');
        }
        onDone('done');
      })}>
        <Stack gap="md">
          <Title order={1} size="h3" ta="center">{t('reset.title')}</Title>
          <FormError message={formError} />
          <NewPasswordInput label={t('reset.newPassword')} autoComplete="new-password" autoFocus {...form.getInputProps('password')} key={form.key('password')} />
          <PasswordInput label={t('reset.repeatNewPassword')} autoComplete="new-password" {...form.getInputProps('repeatPassword')} key={form.key('repeatPassword')} />
          <Button type="submit" loading={busy} fullWidth>{t('reset.submit')}</Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
