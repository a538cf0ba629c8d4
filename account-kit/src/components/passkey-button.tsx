// Passkey sign-in (client-library §1.4.2): the browser's WebAuthn ceremony through the client library.
import { useState } from 'react';
import { Button, Stack } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useGatehouseApp, useTranslate } from '../context';
import { describeAuthError } from '../lib/error-messages';
import { FormError } from './form-error';

export function PasskeyButton() {
  const app = useGatehouseApp();
  const t = useTranslate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const signIn = async () => {
    setBusy(true);
    setError(null);
    try {
      const result = await app.signInWithPasskey();
      if (result.status === 'error') setError(t(describeAuthError(result.error).key));
    } catch (err) {
      setError(t(describeAuthError(err).key));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs">
      <FormError message={error} />
      <Button variant="default" fullWidth leftSection={<IconKey size={18} aria-hidden />} loading={busy} onClick={signIn}>
        {t('signIn.withPasskey')}
      </Button>
    </Stack>
  );
}
