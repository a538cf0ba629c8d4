// Email + password sign-up (POST /auth/password/sign-up through `signUpWithCredential`).
import { Button, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useGatehouseApp, useTranslate } from '../context';
import { newPasswordRule, repeatPasswordRule, signInEmailRule } from '../lib/validation';
import { FormError } from './form-error';
import { PasswordInput } from './password-input';
import { NewPasswordInput } from './new-password-input';
import { useAuthSubmit } from './use-auth-submit';
import { useRuleValidator } from './use-form-rules';

export function CredentialSignUp() {
  const app = useGatehouseApp();
  const t = useTranslate();
  const rule = useRuleValidator();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email: '', password: '', repeatPassword: '' },
    validate: {
      email: rule(signInEmailRule),
      password: rule(newPasswordRule),
      repeatPassword: (value, values) => rule(repeatPasswordRule(values.password))(value),
    },
  });
  const { busy, formError, submit } = useAuthSubmit(form, { email: 'email', password: 'password' });
  return (
    <form noValidate onSubmit={submit(async ({ email, password }) => {
      const result = await app.signUpWithCredential({ email, password });
      return result.status === 'error' ? result.error : undefined;
    })}>
      <Stack gap="sm">
        <FormError message={formError} />
        <TextInput label={t('common.email')} type="email" autoComplete="email" autoFocus {...form.getInputProps('email')} key={form.key('email')} />
        <NewPasswordInput label={t('common.password')} autoComplete="new-password" {...form.getInputProps('password')} key={form.key('password')} />
        <PasswordInput label={t('signUp.repeatPassword')} autoComplete="new-password" {...form.getInputProps('repeatPassword')} key={form.key('repeatPassword')} />
        <Button type="submit" loading={busy} fullWidth>{t('signUp.submit')}</Button>
      </Stack>
    </form>
  );
}
