// Someone's permissions of one scope: those granted directly (revocable), those held only because a granted one
// contains them (with the granted ones that bring them), and a form to grant another. A team member's permissions
// and a user's project permissions both show this.
import { useState } from 'react';
import { Badge, Button, Group, Select, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { PermissionDefinition } from '@gatehouse/shared/client';
import { EmptyState } from './empty-state';
import { showFieldError } from './field-error';
import { grantableIds, memberPermissionRows } from '../lib/teams';
import { t } from '../messages';

export interface PermissionGrantsProps {
  /** The permissions granted directly, and all held (granted or contained), by id. */
  direct: readonly string[];
  held: readonly string[];
  defs: readonly PermissionDefinition[];
  /** The table's accessible name, and the text when nothing is held. */
  label: string;
  emptyText: string;
  change(kind: 'grant' | 'revoke', id: string): Promise<void>;
}

export function PermissionGrants({ direct, held, defs, label, emptyText, change }: PermissionGrantsProps) {
  const graph = new Map(defs.map((d) => [d.id, d.containedPermissionIds]));
  const rows = memberPermissionRows(direct, held, graph);
  // The permission to grant is the form's value; `busy` is the permission being granted or revoked.
  const form = useForm<{ permission: string | null }>({
    initialValues: { permission: null },
    validate: { permission: (v) => (v ? null : t('common.required')) },
  });
  const [busy, setBusy] = useState<string | null>(null);
  const choice = form.values.permission;

  async function run(kind: 'grant' | 'revoke', id: string) {
    setBusy(id);
    form.clearErrors();
    try {
      await change(kind, id);
      notifications.show({ color: 'green', message: t(kind === 'grant' ? 'teams.granted.toast' : 'teams.revoked', { id }) });
      if (kind === 'grant') form.reset();
    } catch (e) {
      showFieldError(form, e, 'permission');
    } finally {
      setBusy(null);
    }
  }

  return (
    <Stack>
      {rows.length === 0 ? <EmptyState text={emptyText} /> : (
        <Table verticalSpacing="xs" aria-label={label}>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.id} data-testid={`member-permission-${row.id}`}>
                <Table.Td>
                  <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>{row.id}</Text>
                  {/* A phone has no room for a second column: how the permission is held goes under its id. */}
                  <Group gap={6} mt={4} hiddenFrom="sm"><HeldAs row={row} /></Group>
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <Group gap={6}><HeldAs row={row} /></Group>
                </Table.Td>
                <Table.Td ta="right">
                  {row.direct && (
                    <Button size="xs" variant="subtle" color="red" loading={busy === row.id} disabled={busy !== null} onClick={() => run('revoke', row.id)}>
                      {/* "Revoke" alone fits a phone; the id is in the button's name for those who do not see the row. */}
                      {t('teams.revokeButton')}<VisuallyHidden>{` ${row.id}`}</VisuallyHidden>
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <form noValidate onSubmit={form.onSubmit(({ permission }) => { if (permission) void run('grant', permission); })}>
        <Group align="flex-end" wrap="nowrap">
          <Select
            label={t('teams.grant')}
            data={grantableIds(defs.map((d) => d.id), direct)}
            {...form.getInputProps('permission')}
            searchable
            style={{ flex: 1 }}
          />
          <Button type="submit" disabled={!choice || busy !== null} loading={busy !== null && busy === choice}>{t('teams.grantButton')}</Button>
        </Group>
      </form>
    </Stack>
  );
}

/** Whether the permission is granted or contained in one granted, and through which. */
function HeldAs({ row }: { row: { direct: boolean; via: readonly string[] } }) {
  return (
    <>
      <Badge variant="light" color={row.direct ? 'blue' : 'gray'}>{t(row.direct ? 'teams.granted' : 'teams.contained')}</Badge>
      {row.via.length > 0 && <Text size="xs" c="dimmed">{t('teams.via', { ids: row.via.join(', ') })}</Text>}
    </>
  );
}
