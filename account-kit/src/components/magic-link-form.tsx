// Email one-time code / magic link: send the email, then type the 6-character code (joined with the nonce the
// send returned, as the protocol wants) or click the link in the mail.
import { Suspense, lazy, useState } from 'react';
import { Button, Skeleton, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useGatehouseApp, useTranslate } from '../context';
import { signInEmailRule } from '../lib/validation';
import { FormError } from './form-error';
import { useAuthSubmit } from './use-auth-submit';
import { useRuleValidator } from './use-form-rules';

// The code step is a lazy chunk: the sign-in page shows the email step first.
const CodeStep = lazy(() => import('./otp-code-step').then((m) => ({ default: m.OtpCodeStep })));

export function MagicLinkForm() {
  const [sent, setSent] = useState<{ email: string; nonce: string } | null>(null);
  if (!sent) return <EmailStep onSent={setSent} />;
  return <Suspense fallback={<Skeleton height={160} />}><CodeStep {...sent} onBack={() => setSent(null)} /></Suspense>;
}

function EmailStep({ onSent }: { onSent: (s: { email: string; nonce: string }) => void }) {
  const app = useGatehouseApp();
  const t = useTranslate();
  const rule = useRuleValidator();
  const form = useForm({ mode: 'uncontrolled', initialValues: { email: '' }, validate: { email: rule(signInEmailRule) } });
  const { busy, formError, submit } = useAuthSubmit(form, { email: 'email' });
  return (
    <form noValidate onSubmit={submit(async ({ email }) => {
      const result = await app.sendMagicLinkEmail(email);
      if (result.status === 'error') return result.error;
      onSent({ email, nonce: result.data.nonce });
    })}>
      <Stack gap="sm">
        <FormError message={formError} />
        <TextInput label={t('common.email')} type="email" autoComplete="email" autoFocus {...form.getInputProps('email')} key={form.key('email')} />
        <Button type="submit" loading={busy} fullWidth>{t('magicLink.sendCode')}</Button>
      </Stack>
    </form>
  );
}
