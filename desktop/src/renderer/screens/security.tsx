// Security: the project's own security settings (issue 30): minimum password length, session lifetimes, the
// new-device notice. Saved through the client library's updateSecuritySettings.
import { useState } from 'react';
import { Alert, Button, Card, Group, NumberInput, Stack, Switch, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ScreenHeader } from '../components/screen-header';
import { useProjectContext } from '../hooks/use-project-context';
import { useSecuritySettings } from '../hooks/use-admin-lists';
import {
  IDLE_MINUTES, LIFETIME_HOURS, PASSWORD_LENGTH, passwordLengthBelowSuggestion, securityUpdate, securityValues, validateSecurity,
  type SecurityValues,
} from '../lib/security-form';
import { showFieldError } from '../components/field-error';
import { t } from '../messages';

const RANGES: Partial<Record<keyof SecurityValues, { min: number; max: number }>> = {
  passwordMinLength: PASSWORD_LENGTH, sessionLifetimeHours: LIFETIME_HOURS, idleTimeoutMinutes: IDLE_MINUTES,
};

export function SecurityScreen() {
  const { app } = useProjectContext();
  const settings = useSecuritySettings();
  const [saving, setSaving] = useState(false);
  const form = useForm<SecurityValues>({
    initialValues: securityValues(settings),
    validate: (v) => Object.fromEntries(Object.entries(validateSecurity(v)).map(([field, key]) => [field, t(key, RANGES[field as keyof SecurityValues])])),
  });

  const save = form.onSubmit(async (values) => {
    setSaving(true);
    try {
      await app.updateSecuritySettings(securityUpdate(values));
      form.resetDirty();
      notifications.show({ color: 'green', message: t('security.saved') });
    } catch (e) {
      showFieldError(form, e, '_form', [
        { field: 'passwordMinLength', schemaPath: /password_min_length/ },
        { field: 'sessionLifetimeHours', schemaPath: /session_lifetime/ },
        { field: 'idleTimeoutMinutes', schemaPath: /session_idle/ },
      ]);
    } finally {
      setSaving(false);
    }
  });

  return (
    <Stack gap="lg">
      <ScreenHeader title={t('security.title')} />
      <form onSubmit={save} noValidate>
        <Stack gap="lg">
          <Card withBorder padding="lg">
            <Stack>
              <Title order={2} size="h4">{t('security.passwords')}</Title>
              <NumberInput label={t('security.passwordMinLength')} description={t('security.passwordMinLengthHint', PASSWORD_LENGTH)}
                min={PASSWORD_LENGTH.min} max={PASSWORD_LENGTH.max} allowDecimal={false} maw={320} {...form.getInputProps('passwordMinLength')} />
              {passwordLengthBelowSuggestion(form.values.passwordMinLength) && (
                <Alert color="yellow" icon={<IconAlertTriangle aria-hidden />} data-testid="password-length-suggestion">{t('security.passwordBelowSuggestion', PASSWORD_LENGTH)}</Alert>
              )}
            </Stack>
          </Card>
          <Card withBorder padding="lg">
            <Stack>
              <Title order={2} size="h4">{t('security.sessions')}</Title>
              <NumberInput label={t('security.sessionLifetime')} description={t('security.sessionLifetimeHint')}
                min={LIFETIME_HOURS.min} max={LIFETIME_HOURS.max} allowDecimal={false} maw={320} {...form.getInputProps('sessionLifetimeHours')} />
              <Switch label={t('security.idleTimeoutEnabled')} {...form.getInputProps('idleTimeoutEnabled', { type: 'checkbox' })} />
              {form.values.idleTimeoutEnabled && (
                <NumberInput label={t('security.idleTimeout')} description={t('security.idleTimeoutHint', IDLE_MINUTES)}
                  min={IDLE_MINUTES.min} max={IDLE_MINUTES.max} allowDecimal={false} maw={320} {...form.getInputProps('idleTimeoutMinutes')} />
              )}
            </Stack>
          </Card>
          <Card withBorder padding="lg">
            <Stack>
              <Title order={2} size="h4">{t('security.notices')}</Title>
              <Switch label={t('security.newDeviceNotice')} {...form.getInputProps('newDeviceSignInNoticeEnabled', { type: 'checkbox' })} />
              <Text size="sm" c="dimmed">{t('security.newDeviceNoticeHint')}</Text>
            </Stack>
          </Card>
          {form.errors._form && <Alert color="red" role="alert">{form.errors._form}</Alert>}
          <Group justify="flex-end"><Button type="submit" loading={saving} disabled={saving}>{t('common.save')}</Button></Group>
        </Stack>
      </form>
    </Stack>
  );
}
