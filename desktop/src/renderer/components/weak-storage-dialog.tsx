// The warning before the desktop app stores keys on a system whose safe storage is a fixed key (Linux without a
// keyring: `basic_text`): the owner chooses between keeping them for this session only (the default, focused) and
// storing them anyway. Mounted once by the console; lib/secret-storage.ts opens it.
import { useEffect, useRef, useState } from 'react';
import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { t } from '../messages';
import { registerWeakStoragePrompt } from '../lib/secret-storage';

export function WeakStorageDialog() {
  const [asking, setAsking] = useState<{ backend: string; answer(agreed: boolean): void } | null>(null);
  const sessionOnly = useRef<HTMLButtonElement>(null);
  useEffect(() => registerWeakStoragePrompt((backend) => new Promise<boolean>((resolve) => setAsking({ backend, answer: resolve }))), []);
  const answer = (agreed: boolean) => {
    asking?.answer(agreed);
    setAsking(null);
  };
  return (
    <Modal opened={!!asking} onClose={() => answer(false)} title={t('weakStorage.title')} size="lg" closeOnClickOutside={false}
      onTransitionEnd={() => sessionOnly.current?.focus()}>
      <Stack>
        <Text size="sm">{t('weakStorage.what', { backend: asking?.backend ?? '' })}</Text>
        <List size="sm" spacing="xs">
          <List.Item>{t('weakStorage.risk')}</List.Item>
          <List.Item>{t('weakStorage.fix')}</List.Item>
        </List>
        <Text size="sm">{t('weakStorage.choice')}</Text>
        <Group justify="flex-end">
          <Button variant="default" color="red.9" onClick={() => answer(true)}>{t('weakStorage.storeAnyway')}</Button>
          <Button ref={sessionOnly} data-autofocus onClick={() => answer(false)}>{t('weakStorage.sessionOnly')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
