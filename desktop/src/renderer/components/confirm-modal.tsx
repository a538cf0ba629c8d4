// A one-way action behind a confirmation: the action's button is busy while it runs, a failure is shown in place.
import { useState, type ReactNode } from 'react';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { t } from '../messages';
import { ErrorMessage } from './error-message';

interface Props {
  title: string;
  text: string;
  confirmLabel: string;
  onConfirm(): Promise<void>;
  onClose(): void;
  /** Extra content (e.g. a "type the name" field); `canConfirm` says whether it is satisfied. */
  children?: ReactNode;
  canConfirm?: boolean;
}

export function ConfirmModal({ title, text, confirmLabel, onConfirm, onClose, children, canConfirm = true }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  return (
    <Modal opened onClose={onClose} title={title}>
      <form noValidate onSubmit={async (e) => {
        e.preventDefault();
        if (!canConfirm) return;
        setBusy(true);
        setError(null);
        try {
          await onConfirm();
        } catch (err) {
          setError(err);
          setBusy(false);
        }
      }}>
        <Stack>
          <Text size="sm">{text}</Text>
          {children}
          {error !== null && <Alert color="red" role="alert"><ErrorMessage error={error} /></Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" color="red.9" loading={busy} disabled={busy || !canConfirm}>{confirmLabel}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
