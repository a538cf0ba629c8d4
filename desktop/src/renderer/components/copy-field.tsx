import { ActionIcon, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { t } from '../messages';

/** A labelled value (id, key, URL) with a copy button. */
export function CopyField({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Stack gap={2}>
      <Text size="sm" fw={500}>{label}</Text>
      <Group gap="xs" wrap="nowrap">
        <Code data-testid={testId} style={{ flex: 1, overflowWrap: 'anywhere', padding: '6px 8px' }}>{value}</Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('common.copied') : t('common.copy')} withArrow>
              <ActionIcon variant="default" size="lg" onClick={copy} aria-label={`${t('common.copy')}: ${label}`}>
                {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

/** A small copy button for a value not shown in full (the header's project id): the tooltip shows the value. */
export function CopyIdButton({ value, label }: { value: string; label: string }) {
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? t('common.copied') : `${label}: ${value}`} withArrow>
          <ActionIcon variant="subtle" color="gray" size="sm" onClick={copy} aria-label={label}>
            {copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}
