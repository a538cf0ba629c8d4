// "Editable text" (client-library §7.1): the value with a pencil button; editing shows an input with Save
// (awaits the save, then leaves edit mode) and Cancel (restores the value).
import { useState } from 'react';
import { ActionIcon, Button, Group, TextInput } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useTranslate } from '../context';
import { TruncatedText } from './truncated-text';

export interface EditableTextProps {
  value: string;
  /** Accessible name of the field (e.g. "User name"). */
  label: string;
  /** Resolves false when the save failed (and was reported): the field stays open. */
  onSave: (value: string) => Promise<boolean | void>;
  placeholder?: string;
  /** The longest value the service takes (display names: shared/src/rules/names.ts); the field stops there. */
  maxLength?: number;
}

export function EditableText({ value, label, onSave, placeholder, maxLength }: EditableTextProps) {
  const t = useTranslate();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  const [busy, setBusy] = useState(false);

  if (!editing) {
    return (
      <Group gap="xs" wrap="nowrap" justify="flex-end" style={{ minWidth: 0 }}>
        <TruncatedText c={value ? undefined : 'dimmed'} data-testid="editable-value" style={{ minWidth: 0 }}>{value || t('settings.editable.empty')}</TruncatedText>
        <ActionIcon variant="subtle" color="gray" aria-label={t('settings.editable.edit', { label })} onClick={() => { setDraft(value); setEditing(true); }}>
          <IconPencil size={16} aria-hidden />
        </ActionIcon>
      </Group>
    );
  }
  const save = async () => {
    setBusy(true);
    try {
      if ((await onSave(draft)) !== false) setEditing(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <Group gap="xs" wrap="wrap" justify="flex-end">
        <TextInput aria-label={label} value={draft} placeholder={placeholder} maxLength={maxLength} onChange={(e) => setDraft(e.currentTarget.value)} autoFocus disabled={busy} style={{ flex: '1 1 180px' }} />
        <Group gap="xs" wrap="nowrap">
          <Button type="submit" size="sm" loading={busy}>{t('settings.editable.save')}</Button>
          <Button variant="default" size="sm" disabled={busy} onClick={() => { setDraft(value); setEditing(false); }}>{t('settings.editable.cancel')}</Button>
        </Group>
      </Group>
    </form>
  );
}
