// Email server: the shared server or the project's own SMTP server, and a test email to any address showing the
// service's answer (success, or its error_message).
import { useState } from 'react';
import { Alert, Button, Card, Checkbox, Group, PasswordInput, SegmentedControl, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconCircleCheck, IconAlertTriangle } from '@tabler/icons-react';
import { isValidEmail } from '@gatehouse/shared/rules/email';
import { ScreenHeader } from '../components/screen-header';
import { useAdminProject, useProjectContext } from '../hooks/use-project-context';
import { emailConfig, emailFormValues, validateEmailForm, type EmailFormValues } from '../lib/email-form';
import { showFieldError } from '../components/field-error';
import { t } from '../messages';
import { ErrorMessage } from '../components/error-message';

const MESSAGES = () => ({ required: t('common.required'), port: t('email.portInvalid'), email: t('common.invalidEmail') });

export function EmailScreen() {
  const project = useAdminProject();
  const [saving, setSaving] = useState(false);
  const form = useForm<EmailFormValues>({ initialValues: emailFormValues(project.config.emailConfig), validate: (v) => validateEmailForm(v, MESSAGES()) });
  const standard = form.values.type === 'standard';
  return (
    <Stack gap="lg">
      <ScreenHeader title={t('email.title')} />
      <Card withBorder padding="lg">
        <form noValidate onSubmit={form.onSubmit(async (v) => {
          setSaving(true);
          try {
            await project.update({ config: { emailConfig: emailConfig(v) } });
            notifications.show({ color: 'green', message: t('email.saved') });
          } catch (e) {
            showFieldError(form, e, 'type', [
              { field: 'port', schemaPath: /port/ }, { field: 'host', schemaPath: /host/ }, { field: 'senderEmail', schemaPath: /sender_email/ },
              { field: 'senderName', schemaPath: /sender_name/ }, { field: 'username', schemaPath: /username/ }, { field: 'password', schemaPath: /password/ },
            ]);
          } finally {
            setSaving(false);
          }
        })}>
          <Stack>
            <Stack gap={4}>
              <Text size="sm" fw={500} id="email-type-label">{t('email.type')}</Text>
              <SegmentedControl aria-labelledby="email-type-label" data={[{ value: 'shared', label: t('email.shared') }, { value: 'standard', label: t('email.standard') }]} {...form.getInputProps('type')} />
              {form.errors.type && <Text c="red" size="sm">{form.errors.type}</Text>}
            </Stack>
            {standard && (
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput label={t('email.host')} withAsterisk {...form.getInputProps('host')} />
                <TextInput label={t('email.port')} withAsterisk inputMode="numeric" {...form.getInputProps('port')} />
                <TextInput label={t('email.username')} withAsterisk {...form.getInputProps('username')} />
                <PasswordInput label={t('email.password')} withAsterisk {...form.getInputProps('password')} />
                <TextInput label={t('email.senderName')} withAsterisk {...form.getInputProps('senderName')} />
                <TextInput label={t('email.senderEmail')} withAsterisk type="email" {...form.getInputProps('senderEmail')} />
              </SimpleGrid>
            )}
            {standard && <Checkbox label={t('email.requireTls')} description={t('email.requireTlsHint')} {...form.getInputProps('requireTls', { type: 'checkbox' })} />}
            <Group justify="flex-end"><Button type="submit" loading={saving} disabled={saving}>{t('common.save')}</Button></Group>
          </Stack>
        </form>
      </Card>
      <TestEmailCard values={form.values} />
    </Stack>
  );
}

function TestEmailCard({ values }: { values: EmailFormValues }) {
  const { app } = useProjectContext();
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<{ ok: true } | { ok: false; serverAnswer: string } | { ok: false; thrown: unknown } | null>(null);
  const form = useForm({ initialValues: { recipient: '' }, validate: { recipient: (v) => (isValidEmail(v.trim()) ? null : t('common.invalidEmail')) } });
  const standard = values.type === 'standard';
  return (
    <Card withBorder padding="lg">
      <form noValidate onSubmit={form.onSubmit(async ({ recipient }) => {
        setSending(true);
        setResult(null);
        try {
          const r = await app.sendTestEmail({
            recipientEmail: recipient.trim(),
            emailConfig: { host: values.host.trim(), port: Number(values.port), username: values.username.trim(), password: values.password, senderName: values.senderName.trim(), senderEmail: values.senderEmail.trim(), requireTls: values.requireTls },
          });
          setResult(r.status === 'ok' ? { ok: true } : { ok: false, serverAnswer: r.error.errorMessage });
        } catch (e) {
          setResult({ ok: false, thrown: e });
        } finally {
          setSending(false);
        }
      })}>
        <Stack>
          <Title order={2} size="h4">{t('email.testTitle')}</Title>
          {!standard && <Text size="sm" c="dimmed">{t('email.testNeedsStandard')}</Text>}
          <Group align="flex-end" wrap="wrap">
            <TextInput style={{ flex: 1, minWidth: 240 }} label={t('email.testRecipient')} type="email" {...form.getInputProps('recipient')} />
            <Button type="submit" loading={sending} disabled={sending || !standard}>{t('email.testSend')}</Button>
          </Group>
          {result?.ok && <Alert color="green" icon={<IconCircleCheck aria-hidden />} role="status" data-testid="test-email-result">{t('email.testSent')}</Alert>}
          {result && !result.ok && (
            <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title={t('email.testFailed')} role="alert" data-testid="test-email-result">{'thrown' in result ? <ErrorMessage error={result.thrown} /> : result.serverAnswer}</Alert>
          )}
        </Stack>
      </form>
    </Card>
  );
}
