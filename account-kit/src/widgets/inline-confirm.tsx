// A confirmation step in place of the button that started it (disable passkey/OTP, delete account, leave team).
import { useState, type ReactNode } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useTranslate } from '../context';

export interface InlineConfirmProps {
  /** The button that opens the confirmation. */
  trigger: (open: () => void) => ReactNode;
  text: string;
  confirmLabel: string;
  /** Resolves when done; the confirmation closes afterwards (also when it throws: the caller reports). */
  onConfirm: () => Promise<unknown>;
  danger?: boolean;
}

export function InlineConfirm({ trigger, text, confirmLabel, onConfirm, danger = true }: InlineConfirmProps) {
  const t = useTranslate();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!open) return <>{trigger(() => setOpen(true))}</>;
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      setOpen(false);
    }
  };
  return (
    <Stack gap="xs" maw={420} role="group" aria-label={confirmLabel}>
      <Text size="sm">{text}</Text>
      <Group gap="xs" justify="flex-end">
        <Button variant="default" size="sm" onClick={() => setOpen(false)} disabled={busy}>{t('settings.cancel')}</Button>
        <Button color={danger ? 'red' : undefined} size="sm" loading={busy} onClick={() => void confirm()} autoFocus>{confirmLabel}</Button>
      </Group>
    </Stack>
  );
}
