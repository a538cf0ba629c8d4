// The user list's filters (verified email, password, MFA, signed in within N days) and the export of the users they
// match as CSV, which the service streams and the browser saves as a file.
import { Button, Group, NumberInput, Select } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconDownload } from '@tabler/icons-react';
import { notifyError } from '../components/notify';
import { useAdminProjectName } from '../hooks/use-project-context';
import { useUserExport } from '../hooks/use-user-export';
import { MAX_ACTIVE_DAYS, exportFileName, filterOptions, type TriState, type UserFilterValues } from '../lib/user-filters';
import { t, type MessageKey } from '../messages';

const choices = (yes: MessageKey, no: MessageKey): { value: TriState; label: string }[] => [
  { value: 'any', label: t('users.filterAny') }, { value: 'yes', label: t(yes) }, { value: 'no', label: t(no) },
];

export function UserFilters({ form, search, newestFirst }: { form: UseFormReturnType<UserFilterValues>; search: string; newestFirst: boolean }) {
  const projectName = useAdminProjectName();
  const { exporting, exportCsv } = useUserExport();
  // Four in a row beside the button at 1280 px; a phone stacks them.
  const width = { flex: '1 1 170px' };
  return (
    <Group align="flex-end" wrap="wrap" gap="sm" data-testid="user-filters">
      <Select label={t('users.filterEmail')} data={choices('users.filterVerified', 'users.filterUnverified')} allowDeselect={false} style={width} {...form.getInputProps('verified')} />
      <Select label={t('users.filterPassword')} data={choices('users.filterHasPassword', 'users.filterNoPassword')} allowDeselect={false} style={width} {...form.getInputProps('password')} />
      <Select label={t('users.filterMfa')} data={choices('users.filterMfaOn', 'users.filterMfaOff')} allowDeselect={false} style={width} {...form.getInputProps('mfa')} />
      <NumberInput label={t('users.filterActiveDays')} placeholder={t('users.filterAnyTime')} min={1} max={MAX_ACTIVE_DAYS} allowDecimal={false} allowNegative={false}
        style={width} {...form.getInputProps('activeDays')} />
      <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />} loading={exporting} disabled={exporting}
        onClick={() => exportCsv({ ...filterOptions(form.values), query: search || undefined, desc: newestFirst }, exportFileName(projectName ?? '', new Date())).catch(notifyError)}>
        {t('users.export')}
      </Button>
    </Group>
  );
}
