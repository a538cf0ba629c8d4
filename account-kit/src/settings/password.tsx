// Password (client-library §7.3): set a first password or update it. "Incorrect password." goes on the
// old-password field; a rejected new password on the new-password field (also for a first password: §8 #21).
import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { KnownError } from '@gatehouse/shared/known-errors/base';
import type { CurrentUser } from '@gatehouse/shared/client';
import { useTranslate } from '../context';
import { PasswordInput } from '../components/password-input';
import { NewPasswordInput } from '../components/new-password-input';
import { useRuleValidator } from '../components/use-form-rules';
import { useContactChannels } from '../hooks/use-user-data';
import { hasSignInEmail } from '../lib/only-sign-in-method';
import { oldPasswordRule, settingsNewPasswordRule, settingsRepeatPasswordRule } from '../lib/settings-validation';
import { SettingsSection } from '../widgets/settings-section';
import { notifySuccess, useSettingsAction } from './settings-actions';

export function PasswordSection({ user }: { user: CurrentUser }) {
  const t = useTranslate();
  const channels = useContactChannels(user);
  const [open, setOpen] = useState(false);
  const canSet = hasSignInEmail(channels);
  const update = user.hasPassword;
  return (
    <SettingsSection
      id="password"
      title={t('settings.password.title')}
      description={t(update ? 'settings.password.update' : 'settings.password.set')}
      actions={!open && canSet ? (
        <Button variant="default" size="sm" onClick={() => setOpen(true)}>{t(update ? 'settings.password.updateButton' : 'settings.password.setButton')}</Button>
      ) : null}
    >
      {!canSet && <Text size="sm" c="dimmed">{t('settings.password.needsEmail')}</Text>}
      {open && canSet && <PasswordForm user={user} onClose={() => setOpen(false)} />}
    </SettingsSection>
  );
}

function PasswordForm({ user, onClose }: { user: CurrentUser; onClose: () => void }) {
  const t = useTranslate();
  const rule = useRuleValidator();
  const run = useSettingsAction();
  const [busy, setBusy] = useState(false);
  const update = user.hasPassword;
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { oldPassword: '', newPassword: '', repeatPassword: '' },
    validate: {
      oldPassword: (value) => (update ? rule(oldPasswordRule)(value) : null),
      newPassword: rule(settingsNewPasswordRule),
      repeatPassword: (value, values) => rule(settingsRepeatPasswordRule(values.newPassword))(value),
    },
    // Typing in either new-password field clears both of their errors.
    onValuesChange: (values, previous) => {
      if (values.newPassword !== previous.newPassword || values.repeatPassword !== previous.repeatPassword) {
        form.clearFieldError('newPassword');
        form.clearFieldError('repeatPassword');
      }
    },
  });
  const close = () => { form.reset(); onClose(); };
  const showReturned = (err: KnownError) => {
    if (err.errorCode === 'PASSWORD_CONFIRMATION_MISMATCH') form.setFieldError('oldPassword', t('settings.password.incorrect'));
    else form.setFieldError('newPassword', t('settings.password.requirementsNotMet'));
  };
  return (
    <form noValidate onSubmit={form.onSubmit(async ({ oldPassword, newPassword }) => {
      setBusy(true);
      let returned: KnownError | undefined;
      const ok = await run(async () => {
        returned = update ? await user.updatePassword({ oldPassword, newPassword }) : await user.setPassword({ password: newPassword });
      });
      setBusy(false);
      if (returned) showReturned(returned);
      else if (ok) {
        notifySuccess(t(update ? 'settings.password.updated' : 'settings.password.setDone'));
        close();
      }
    })}>
      <Stack gap="sm" maw={420}>
        {update && <PasswordInput label={t('settings.password.old')} autoComplete="current-password" autoFocus {...form.getInputProps('oldPassword')} key={form.key('oldPassword')} />}
        <NewPasswordInput label={t('settings.password.new')} autoComplete="new-password" autoFocus={!update} {...form.getInputProps('newPassword')} key={form.key('newPassword')} />
        <PasswordInput label={t('settings.password.repeat')} autoComplete="new-password" {...form.getInputProps('repeatPassword')} key={form.key('repeatPassword')} />
        <Group gap="xs" justify="flex-end">
          <Button variant="default" size="sm" onClick={close} disabled={busy}>{t('settings.cancel')}</Button>
          <Button type="submit" size="sm" loading={busy}>{t(update ? 'settings.password.updateSubmit' : 'settings.password.setSubmit')}</Button>
        </Group>
      </Stack>
    </form>
  );
}
