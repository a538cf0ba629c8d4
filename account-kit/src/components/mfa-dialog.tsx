// The TOTP step of a sign-in (client-library §3.7): the client library asks through `setUiMfaPrompt`, this
// dialog answers with the six digits the person types (or nothing when they cancel).
import { useState, useSyncExternalStore } from 'react';
import { Button, Group, Modal, PinInput, Stack, Text } from '@mantine/core';
import { useTranslate } from '../context';
import type { MfaPromptController } from '../lib/mfa-prompt';
import { registerEnglish } from '../messages';
import { enPages } from '../messages/en-pages';

registerEnglish(enPages);

export function MfaDialog({ controller }: { controller: MfaPromptController }) {
  const t = useTranslate();
  const pending = useSyncExternalStore(controller.subscribe, controller.current, controller.current);
  const [code, setCode] = useState('');
  const submit = (value: string) => {
    if (!pending || value.length !== 6) return;
    setCode('');
    pending.answer(value);
  };
  return (
    <Modal opened={!!pending} onClose={() => { setCode(''); pending?.answer(null); }} title={t('mfa.title')} centered closeButtonProps={{ 'aria-label': t('common.close') }}>
      <form onSubmit={(e) => { e.preventDefault(); submit(code); }}>
        <Stack>
          <Text size="sm" id="gatehouse-mfa-prompt">{t('mfa.prompt')}</Text>
          <Group justify="center">
            <PinInput
              length={6}
              type="number"
              oneTimeCode
              autoFocus
              value={code}
              onChange={setCode}
              onComplete={submit}
              ariaLabel={t('mfa.codeLabel')}
              // The modal's focus trap picks the element marked data-autofocus (else its close button).
              getInputProps={(index) => ({ 'aria-label': `${t('mfa.codeLabel')} ${index + 1}`, ...(index === 0 ? { 'data-autofocus': true } : {}) })}
            />
          </Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => { setCode(''); pending?.answer(null); }}>{t('common.cancel')}</Button>
            <Button type="submit" disabled={code.length !== 6}>{t('mfa.verify')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
