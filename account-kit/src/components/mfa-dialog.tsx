// The TOTP step of a sign-in (client-library §3.7): the client library asks through `setUiMfaPrompt`, this
// dialog checks the six digits the person types through the prompt's `verify`. A wrong code keeps the dialog open
// with the error under the field, and the person tries again while the attempt code lives (issue 25); a sign-in
// that is over (the attempt expired) or a cancel closes it, and the sign-in form says to sign in again.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { Button, Group, Input, Modal, PinInput, Stack, Text } from '@mantine/core';
import { useTranslate } from '../context';
import type { MfaPromptController } from '../lib/mfa-prompt';
import { registerEnglish } from '../messages';
import { enPages } from '../messages/en-pages';

registerEnglish(enPages);

export function MfaDialog({ controller }: { controller: MfaPromptController }) {
  const t = useTranslate();
  const pending = useSyncExternalStore(controller.subscribe, controller.current, controller.current);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [wrong, setWrong] = useState(false);
  // After a wrong code, back to the first box for the next try (once the boxes are enabled again).
  useEffect(() => {
    if (wrong && !busy) document.querySelector<HTMLElement>('#gatehouse-mfa-boxes input[data-autofocus]')?.focus();
  }, [wrong, busy]);
  const close = () => { setCode(''); setWrong(false); pending?.answer(null); };
  const submit = async (value: string) => {
    if (!pending || value.length !== 6 || busy) return;
    if (!pending.verify) {
      setCode('');
      return pending.answer(value);
    }
    setBusy(true);
    const outcome = await pending.verify(value).finally(() => setBusy(false));
    setCode('');
    setWrong(outcome === 'invalid');
    if (outcome === 'invalid') return;
    pending.answer(outcome === 'ok' ? value : null);
  };
  return (
    <Modal opened={!!pending} onClose={close} title={t('mfa.title')} centered closeButtonProps={{ 'aria-label': t('common.close') }}>
      <form onSubmit={(e) => { e.preventDefault(); void submit(code); }}>
        <Stack>
          <Text size="sm" id="gatehouse-mfa-prompt">{t('mfa.prompt')}</Text>
          {/* The wrapper ties its error to every digit box (aria-describedby, aria-invalid), under the boxes. */}
          <Input.Wrapper
            id="gatehouse-mfa-code"
            error={wrong ? t('mfa.wrongCode') : undefined}
            errorProps={{ role: 'alert', ta: 'center' }}
          >
            <Group justify="center" id="gatehouse-mfa-boxes">
              <PinInput
                length={6}
                type="number"
                oneTimeCode
                autoFocus
                value={code}
                onChange={(v) => { setCode(v); if (v) setWrong(false); }}
                onComplete={(v) => void submit(v)}
                disabled={busy}
                error={wrong}
                ariaLabel={t('mfa.codeLabel')}
                // The modal's focus trap picks the element marked data-autofocus (else its close button).
                getInputProps={(index) => ({ 'aria-label': `${t('mfa.codeLabel')} ${index + 1}`, ...(index === 0 ? { 'data-autofocus': true } : {}) })}
              />
            </Group>
          </Input.Wrapper>
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={busy}>{t('common.cancel')}</Button>
            <Button type="submit" loading={busy} disabled={code.length !== 6}>{t('mfa.verify')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
