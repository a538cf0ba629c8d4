// Email + password sign-in (POST /auth/password/sign-in through `signInWithCredential`).
import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useGatehouseApp, useTranslate } from '../context';
import { existingPasswordRule, signInEmailRule } from '../lib/validation';
import { FormError } from './form-error';
import { PasswordInput } from './password-input';
import { useAuthSubmit } from './use-auth-submit';
import { useRuleValidator } from './use-form-rules';

export function CredentialSignIn() {
  const app = useGatehouseApp();
  const t = useTranslate();
  const rule = useRuleValidator();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email: '', password: '' },
    validate: { email: rule(signInEmailRule), password: rule(existingPasswordRule) },
  });
  const { busy, formError, submit } = useAuthSubmit(form, { email: 'email', password: 'password' });
  return (
    <form noValidate onSubmit={submit(async ({ email, password }) => {
      const result = await app.signInWithCredential({ email, password });
      return result.status === 'error' ? result.error : undefined;
    })}>
      <Stack gap="sm">
        <FormError message={formError} />
        <TextInput label={t('common.email')} type="email" autoComplete="email" autoFocus {...form.getInputProps('email')} key={form.key('email')} />
        <PasswordInput label={t('common.password')} autoComplete="current-password" {...form.getInputProps('password')} key={form.key('password')} />
        <Group justify="flex-end">
          <Anchor size="sm" href={app.urls.forgotPassword} onClick={(e) => { e.preventDefault(); void app.redirectToForgotPassword(); }}>
            {t('signIn.forgotPassword')}
          </Anchor>
        </Group>
        <Button type="submit" loading={busy} fullWidth>{t('signIn.submit')}</Button>
      </Stack>
    </form>
  );
}
