// OTP sign-in (client-library §7.3): turn sign-in by emailed code / magic link on, or off with a confirmation
// (unless it is the only way to sign in).
import { useState } from 'react';
import { Button, Text } from '@mantine/core';
import type { CurrentUser } from '@gatehouse/shared/client';
import { useTranslate } from '../context';
import { useContactChannels } from '../hooks/use-user-data';
import { otpState } from '../lib/only-sign-in-method';
import { InlineConfirm } from '../widgets/inline-confirm';
import { SettingsSection } from '../widgets/settings-section';
import { useSettingsAction } from './settings-actions';

export function OtpSection({ user }: { user: CurrentUser }) {
  const t = useTranslate();
  const run = useSettingsAction();
  const channels = useContactChannels(user);
  const [busy, setBusy] = useState(false);
  const state = otpState(user, channels);
  const enable = async () => {
    setBusy(true);
    await run(() => user.update({ otpAuthEnabled: true }));
    setBusy(false);
  };
  let actions = null;
  let text = null;
  if (state === 'no-valid-email') text = t('settings.otp.needsEmail');
  else if (state === 'only-method') text = t('settings.otp.onlyMethod');
  else if (state === 'disabled') actions = <Button variant="default" size="sm" loading={busy} onClick={() => void enable()}>{t('settings.otp.enable')}</Button>;
  else {
    actions = (
      <InlineConfirm
        trigger={(open) => <Button variant="default" size="sm" onClick={open}>{t('settings.otp.disableButton')}</Button>}
        text={t('settings.otp.confirm')}
        confirmLabel={t('settings.otp.disable')}
        onConfirm={() => run(() => user.update({ otpAuthEnabled: false }))}
      />
    );
  }
  return (
    <SettingsSection
      id="otp"
      title={t('settings.otp.title')}
      description={t(user.otpAuthEnabled ? 'settings.otp.enabled' : 'settings.otp.disabledDescription')}
      actions={actions}
    >
      {text && <Text size="sm" c="dimmed">{text}</Text>}
    </SettingsSection>
  );
}
