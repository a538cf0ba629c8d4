// The code step of the email sign-in: the 6-character code from the mail, joined with the nonce that sending
// it returned (the protocol's OTP + nonce), or the person clicks the link in the mail instead.
import { Anchor, Button, Group, PinInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useGatehouseApp, useTranslate } from '../context';
import { FormError } from './form-error';
import { useAuthSubmit } from './use-auth-submit';

export const OTP_CODE_LENGTH = 6;

export function OtpCodeStep({ email, nonce, onBack }: { email: string; nonce: string; onBack: () => void }) {
  const app = useGatehouseApp();
  const t = useTranslate();
  const form = useForm({
    mode: 'controlled',
    initialValues: { code: '' },
    validate: { code: (v) => (v.length === OTP_CODE_LENGTH ? null : t('validation.codeRequired')) },
  });
  const { busy, formError, submit } = useAuthSubmit(form, { code: 'code' });
  const onSubmit = submit(async ({ code }) => {
    const result = await app.signInWithMagicLink(code.toLowerCase() + nonce);
    return result.status === 'error' ? result.error : undefined;
  });
  return (
    <form noValidate onSubmit={onSubmit}>
      <Stack gap="sm">
        <Text fw={600}>{t('magicLink.codeTitle')}</Text>
        <Text size="sm" c="dimmed">{t('magicLink.codeSent', { email })}</Text>
        <FormError message={formError} />
        <Stack gap={4}>
          <Text component="label" size="sm" fw={500} id="gatehouse-otp-label">{t('magicLink.codeLabel')}</Text>
          <Group justify="center">
            <PinInput
              length={OTP_CODE_LENGTH}
              type="alphanumeric"
              oneTimeCode
              autoFocus
              ariaLabel={t('magicLink.codeLabel')}
              getInputProps={(index) => ({ 'aria-label': `${t('magicLink.codeLabel')} ${index + 1}` })}
              error={!!form.errors.code}
              value={form.values.code}
              onChange={(v) => form.setFieldValue('code', v.toUpperCase())}
              inputMode="text"
              data-path="code"
            />
          </Group>
          {form.errors.code && <Text c="red" size="sm" role="alert">{form.errors.code}</Text>}
        </Stack>
        <Button type="submit" loading={busy} fullWidth>{t('magicLink.verify')}</Button>
        <Anchor component="button" type="button" size="sm" onClick={onBack}>{t('magicLink.back')}</Anchor>
      </Stack>
    </form>
  );
}
