// Passkey (client-library §7.3): register one through the browser's WebAuthn, or turn passkey sign-in off
// (unless it is the only way to sign in). States are decided in lib/only-sign-in-method.ts.
import { useState } from 'react';
import { Button, Text } from '@mantine/core';
import type { CurrentUser } from '@gatehouse/shared/client';
import { useTranslate } from '../context';
import { useContactChannels } from '../hooks/use-user-data';
import { passkeyState } from '../lib/only-sign-in-method';
import { InlineConfirm } from '../widgets/inline-confirm';
import { SettingsSection } from '../widgets/settings-section';
import { useSettingsAction } from './settings-actions';

export function PasskeySection({ user }: { user: CurrentUser }) {
  const t = useTranslate();
  const run = useSettingsAction();
  const channels = useContactChannels(user);
  const [busy, setBusy] = useState(false);
  const state = passkeyState(user, channels);
  const register = async () => {
    setBusy(true);
    await run(async () => {
      const result = await user.registerPasskey();
      if (result.status === 'error') throw result.error;
    });
    setBusy(false);
  };
  let actions = null;
  let text = null;
  if (state === 'no-valid-email') text = t('settings.passkey.needsEmail');
  else if (state === 'only-method') text = t('settings.passkey.onlyMethod');
  else if (state === 'can-register') actions = <Button variant="default" size="sm" loading={busy} onClick={() => void register()}>{t('settings.passkey.add')}</Button>;
  else {
    actions = (
      <InlineConfirm
        trigger={(open) => <Button variant="default" size="sm" onClick={open}>{t('settings.passkey.delete')}</Button>}
        text={t('settings.passkey.confirm')}
        confirmLabel={t('settings.passkey.disable')}
        onConfirm={() => run(() => user.update({ passkeyAuthEnabled: false }))}
      />
    );
  }
  return (
    <SettingsSection
      id="passkey"
      title={t('settings.passkey.title')}
      description={t(user.passkeyAuthEnabled ? 'settings.passkey.registered' : 'settings.passkey.register')}
      actions={actions}
    >
      {text && <Text size="sm" c="dimmed">{text}</Text>}
    </SettingsSection>
  );
}
