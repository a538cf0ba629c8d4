// Multi-factor authentication (client-library §7.3): enrolment shows a QR code of the otpauth URI (and the URI
// to copy, for a person setting up an app on the same device); the typed code is checked locally and, when
// right, the secret is saved. Disable turns it off at once.
import { useEffect, useState } from 'react';
import { Button, Code, CopyButton, Group, Image, Stack, Text, TextInput } from '@mantine/core';
import type { CurrentUser } from '@gatehouse/shared/client';
import { useForm } from '@mantine/form';
import { useTranslate } from '../context';
import { useRuleValidator } from '../components/use-form-rules';
import { totpCodeRule, totpDigits } from '../lib/settings-validation';
import { useProject } from '../hooks/use-project';
import { newTotpSecret, otpauthUri, verifyTotp } from '../lib/totp';
import { SettingsSection } from '../widgets/settings-section';
import { useSettingsAction } from './settings-actions';

// A secret being enrolled outlives the section (in memory only, for the page's life): a person who scanned the QR
// code and then opened another item finds the same code on coming back, not a new one their app does not hold.
const enrolling = new Map<string, Uint8Array>();

function useEnrolmentSecret(userId: string) {
  const [secret, setSecret] = useState<Uint8Array | null>(() => enrolling.get(userId) ?? null);
  const set = (next: Uint8Array | null) => {
    if (next) enrolling.set(userId, next);
    else enrolling.delete(userId);
    setSecret(next);
  };
  return [secret, set] as const;
}

export function MfaSection({ user }: { user: CurrentUser }) {
  const t = useTranslate();
  const run = useSettingsAction();
  const [secret, setSecret] = useEnrolmentSecret(user.id);
  const [busy, setBusy] = useState(false);
  const enabled = user.isMultiFactorRequired;
  // Turned on some other way (another tab): the enrolment left here is over.
  useEffect(() => { if (enabled && secret) setSecret(null); }, [enabled]);
  const disable = async () => {
    setBusy(true);
    await run(() => user.update({ totpMultiFactorSecret: null }));
    setBusy(false);
  };
  let actions = null;
  if (enabled) actions = <Button variant="default" size="sm" loading={busy} onClick={() => void disable()}>{t('settings.mfa.disable')}</Button>;
  else if (!secret) actions = <Button variant="default" size="sm" onClick={() => setSecret(newTotpSecret())}>{t('settings.mfa.enable')}</Button>;
  return (
    <SettingsSection
      id="mfa"
      title={t('settings.mfa.title')}
      description={t(enabled ? 'settings.mfa.enabled' : 'settings.mfa.disabled')}
      actions={actions}
    >
      {!enabled && secret && <MfaEnrolment user={user} secret={secret} onClose={() => setSecret(null)} />}
    </SettingsSection>
  );
}

function MfaEnrolment({ user, secret, onClose }: { user: CurrentUser; secret: Uint8Array; onClose: () => void }) {
  const t = useTranslate();
  const run = useSettingsAction();
  const ruleValidator = useRuleValidator();
  const project = useProject();
  const uri = otpauthUri(secret, project.displayName, user.primaryEmail ?? user.id);
  const [qr, setQr] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useForm({ initialValues: { code: '' }, validate: { code: ruleValidator(totpCodeRule) } });

  useEffect(() => {
    let live = true;
    void import('qrcode').then((m) => m.toDataURL(uri)).then((url) => live && setQr(url));
    return () => { live = false; };
  }, [uri]);

  // Checked here, with the secret being enrolled (the service only stores it); saved once it is right.
  const check = async (digits: string) => {
    if (!(await verifyTotp(secret, digits))) {
      form.setFieldError('code', t('settings.mfa.incorrect'));
      return;
    }
    setSaving(true);
    const ok = await run(() => user.update({ totpMultiFactorSecret: secret }));
    setSaving(false);
    if (ok) onClose();
  };

  return (
    <Stack gap="sm" align="flex-start">
      <Text size="sm">{t('settings.mfa.scan')}</Text>
      {qr ? <Image src={qr} alt={t('settings.mfa.qrAlt')} w={200} h={200} radius="sm" bg="white" /> : <div style={{ width: 200, height: 200 }} aria-busy="true" />}
      <Text size="xs" c="dimmed">{t('settings.mfa.manual')}</Text>
      <Group gap="xs" wrap="nowrap" maw="100%">
        <Code data-testid="otpauth-uri" style={{ overflowWrap: 'anywhere', maxWidth: 420 }}>{uri}</Code>
        <CopyButton value={uri}>
          {({ copied, copy }) => <Button size="xs" variant="default" onClick={copy}>{t(copied ? 'settings.mfa.copied' : 'settings.mfa.copy')}</Button>}
        </CopyButton>
      </Group>
      <Text size="sm">{t('settings.mfa.enter')}</Text>
      <form noValidate onSubmit={form.onSubmit(({ code }) => void check(code))}>
        <TextInput
          aria-label={t('settings.mfa.codeLabel')}
          placeholder="123456"
          maxLength={6}
          inputMode="numeric"
          autoComplete="one-time-code"
          disabled={saving}
          {...form.getInputProps('code')}
          // Digits only; the sixth one checks the code, as there is no button to press.
          onChange={(e) => {
            const digits = totpDigits(e.currentTarget.value);
            form.setFieldValue('code', digits);
            if (digits.length === 6) void check(digits);
          }}
          w={200}
        />
      </form>
      <Button variant="default" size="sm" onClick={onClose} disabled={saving}>{t('settings.cancel')}</Button>
    </Stack>
  );
}
