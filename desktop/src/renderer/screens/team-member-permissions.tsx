// One member's permissions in a team: those granted directly (revocable), those held only because a granted one
// contains them (with the granted ones that bring them), and granting another.
import { useState } from 'react';
import { Badge, Button, Group, Modal, Select, Stack, Table, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { ServerTeam, ServerTeamUser } from '@gatehouse/shared/client';
import { EmptyState } from '../components/empty-state';
import { ScreenBoundary } from '../components/screen-boundary';
import { useMemberPermissions, useTeamPermissionDefinitions } from '../hooks/use-teams';
import { grantableIds, memberName, memberPermissionRows } from '../lib/teams';
import { t } from '../messages';
import { showFieldError } from '../components/field-error';

export function MemberPermissionsModal({ team, member, onClose }: { team: ServerTeam; member: ServerTeamUser; onClose(): void }) {
  return (
    <Modal opened onClose={onClose} size="lg" title={t('teams.permissions', { user: memberName(member) })}>
      <ScreenBoundary>
        <MemberPermissions team={team} member={member} />
      </ScreenBoundary>
    </Modal>
  );
}

function MemberPermissions({ team, member }: { team: ServerTeam; member: ServerTeamUser }) {
  const direct = useMemberPermissions(member, team.id, false);
  const held = useMemberPermissions(member, team.id, true);
  const defs = useTeamPermissionDefinitions();
  const graph = new Map(defs.map((d) => [d.id, d.containedPermissionIds]));
  const rows = memberPermissionRows(direct, held, graph);
  // The permission to grant is the form's value; `busy` is the permission being granted or revoked.
  const form = useForm<{ permission: string | null }>({
    initialValues: { permission: null },
    validate: { permission: (v) => (v ? null : t('common.required')) },
  });
  const [busy, setBusy] = useState<string | null>(null);
  const choice = form.values.permission;

  async function change(kind: 'grant' | 'revoke', id: string) {
    setBusy(id);
    form.clearErrors();
    try {
      if (kind === 'grant') await member.grantPermission(team, id);
      else await member.revokePermission(team, id);
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
      {rows.length === 0 ? <EmptyState text={t('teams.permissionsNone')} /> : (
        <Table verticalSpacing="xs" aria-label={t('teams.permissions', { user: memberName(member) })}>
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
                    <Button size="xs" variant="subtle" color="red" loading={busy === row.id} disabled={busy !== null} onClick={() => change('revoke', row.id)}>
                      {t('teams.revoke', { id: row.id })}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <form noValidate onSubmit={form.onSubmit(({ permission }) => { if (permission) void change('grant', permission); })}>
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
