// Users: the project's users a page at a time (search, filters, newest or oldest first, keyset cursors), exported as
// CSV (user-filters.tsx), create one, open one (its page is user-page.tsx).
import { useState } from 'react';
import {
  Alert, Anchor, Avatar, Badge, Button, Card, Checkbox, Group, Modal, PasswordInput, Radio, SegmentedControl, Stack, Table, Text, TextInput,
  useMatches,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconChevronLeft, IconChevronRight, IconPlus, IconSearch } from '@tabler/icons-react';
import type { ServerUser } from '@gatehouse/shared/client';
import { EmptyState } from '../components/empty-state';
import { ScreenHeader } from '../components/screen-header';
import { ListSkeleton } from '../components/screen-boundary';
import { StatusBadge } from '../components/status-badge';
import { useAdminProject, useProjectContext } from '../hooks/use-project-context';
import { navigate, useRoute } from '../hooks/use-route';
import { useUsersPage } from '../hooks/use-users-page';
import { formatDate, formatDateTime } from '../lib/format';
import { showFieldError } from '../components/field-error';
import { routeHash } from '../lib/routes';
import {
  FIRST_PAGE, USERS_PAGE_SIZE, createUserBody, currentCursor, hasBeenActive, initials, nextPage, previousPage, signInMethods, validateCreateUser,
  type CreateUserValues, type Paging, type SignInMethod,
} from '../lib/users';
import { t } from '../messages';
import { UserPage } from './user-page';
import { UserFilters } from './user-filters';
import { MAX_ACTIVE_DAYS, NO_FILTER, activeDaysProblem, filterOptions, isFiltered, type UserFilterValues } from '../lib/user-filters';
import { ErrorMessage } from '../components/error-message';

export function UsersScreen() {
  const route = useRoute();
  const userId = route.name === 'project' ? route.itemId : undefined;
  return userId ? <UserPage key={userId} userId={userId} /> : <UserList />;
}

export function methodLabel(m: SignInMethod): string {
  return m.kind === 'oauth' ? m.provider : t(`users.method.${m.kind}`);
}

function UserList() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [newestFirst, setNewestFirst] = useState(true);
  const [paging, setPaging] = useState<Paging>(FIRST_PAGE);
  const [creating, setCreating] = useState(false);
  const filters = useForm<UserFilterValues>({
    initialValues: NO_FILTER,
    validate: { activeDays: (v) => (activeDaysProblem(v) ? t('users.filterActiveDaysRange', { max: MAX_ACTIVE_DAYS }) : null) },
    validateInputOnChange: true,
  });
  const filter = filterOptions(filters.values);
  const filterKey = JSON.stringify(filter);
  const page = useUsersPage({ cursor: currentCursor(paging), limit: USERS_PAGE_SIZE, newestFirst, search: debounced, filter });
  // A new search, order or filter starts again at the first page (cursors belong to one query).
  const [pagedFor, setPagedFor] = useState({ debounced, newestFirst, filterKey });
  if (pagedFor.debounced !== debounced || pagedFor.newestFirst !== newestFirst || pagedFor.filterKey !== filterKey) {
    setPagedFor({ debounced, newestFirst, filterKey });
    setPaging(FIRST_PAGE);
  }
  const users = page.users;
  return (
    <Stack gap="lg">
      <ScreenHeader title={t('users.title')}>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>{t('users.create')}</Button>
      </ScreenHeader>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label={t('users.search')}
          placeholder={t('users.searchPlaceholder')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          style={{ flex: '1 1 240px' }}
          maw={420}
        />
        <SegmentedControl
          aria-label={t('users.order')}
          value={newestFirst ? 'newest' : 'oldest'}
          onChange={(v) => setNewestFirst(v === 'newest')}
          data={[{ value: 'newest', label: t('users.newestFirst') }, { value: 'oldest', label: t('users.oldestFirst') }]}
        />
      </Group>
      <UserFilters form={filters} search={debounced} newestFirst={newestFirst} />
      {page.error ? (
        <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title={t('common.errorTitle')} role="alert">
          <Stack gap="sm" align="flex-start">
            <span data-testid="screen-error"><ErrorMessage error={page.error} /></span>
            <Button size="xs" variant="default" onClick={page.reload}>{t('common.retry')}</Button>
          </Stack>
        </Alert>
      ) : users === null ? <ListSkeleton rows={6} /> : users.length === 0 && paging.index === 0 ? (
        <EmptyState text={debounced ? t('users.noMatch', { query: debounced }) : isFiltered(filters.values) ? t('users.noFilterMatch') : t('users.empty')} />
      ) : (
        <>
          <UserTable users={users} busy={page.loading} />
          <Group justify="space-between" wrap="wrap">
            <Text size="sm" c="dimmed" aria-live="polite" data-testid="users-page-number">{t('users.page', { page: paging.index + 1 })}</Text>
            <Group gap="xs">
              <Button variant="default" leftSection={<IconChevronLeft size={16} aria-hidden />} disabled={paging.index === 0 || page.loading}
                onClick={() => setPaging(previousPage(paging))}>{t('users.previous')}</Button>
              <Button variant="default" rightSection={<IconChevronRight size={16} aria-hidden />} disabled={users.nextCursor === null || page.loading}
                onClick={() => setPaging(nextPage(paging, users.nextCursor))}>{t('users.next')}</Button>
            </Group>
          </Group>
        </>
      )}
      <CreateUserModal opened={creating} onClose={() => setCreating(false)} onCreated={() => { setCreating(false); setPaging(FIRST_PAGE); page.reload(); }} />
    </Stack>
  );
}

function UserTable({ users, busy }: { users: readonly ServerUser[]; busy: boolean }) {
  const route = useRoute();
  const hrefFor = (id: string) => (route.name === 'project' ? routeHash({ ...route, screen: 'users', itemId: id }) : '#');
  // A phone shows one column (name, and the email under it): five side by side scrolled sideways at 390 px.
  const minWidth = useMatches({ base: 0, sm: 820 });
  return (
    <Card withBorder padding={0} aria-busy={busy}>
      <Table.ScrollContainer minWidth={minWidth}>
        <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover aria-label={t('users.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('users.user')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('users.email')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('users.methods')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('users.signedUp')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('users.lastActive')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {users.map((u) => (
              <Table.Tr key={u.id} data-testid="user-row" data-user-id={u.id}>
                <Table.Td>
                  <Group gap="sm" wrap="nowrap">
                    <Avatar src={u.profileImageUrl} alt="" radius="xl" size="sm" color="indigo.8" variant="filled">
                      {initials(u.displayName, u.primaryEmail)}
                    </Avatar>
                    <Stack gap={0} style={{ minWidth: 0 }}>
                      <Anchor href={hrefFor(u.id)} fw={600} onClick={(e) => {
                        if (route.name !== 'project') return;
                        e.preventDefault();
                        navigate({ ...route, screen: 'users', itemId: u.id });
                      }}>{u.displayName ?? t('users.noName')}</Anchor>
                      <Text size="xs" c="dimmed" hiddenFrom="sm" style={{ overflowWrap: 'anywhere' }}>{u.primaryEmail ?? t('users.noEmail')}</Text>
                    </Stack>
                  </Group>
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  {u.primaryEmail ? (
                    <Group gap="xs" wrap="nowrap">
                      <Text size="sm" data-testid="user-email">{u.primaryEmail}</Text>
                      {u.primaryEmailVerified
                        ? <StatusBadge color="green" size="xs">{t('users.verified')}</StatusBadge>
                        : <StatusBadge color="gray" size="xs">{t('users.unverified')}</StatusBadge>}
                    </Group>
                  ) : <Text size="sm" c="dimmed">{t('users.noEmail')}</Text>}
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <Group gap={4}>
                    {signInMethods(u).map((m) => <Badge key={m.kind === 'oauth' ? m.provider : m.kind} variant="light" color="gray" size="sm">{methodLabel(m)}</Badge>)}
                  </Group>
                </Table.Td>
                <Table.Td visibleFrom="sm" style={{ whiteSpace: 'nowrap' }}>{formatDate(u.signedUpAt)}</Table.Td>
                <Table.Td visibleFrom="sm" style={{ whiteSpace: 'nowrap' }}>{hasBeenActive(u) ? formatDateTime(u.lastActiveAt) : <Text span size="sm" c="dimmed">{t('users.neverActive')}</Text>}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

function CreateUserModal({ opened, onClose, onCreated }: { opened: boolean; onClose(): void; onCreated(): void }) {
  const { app } = useProjectContext();
  const project = useAdminProject();
  const [saving, setSaving] = useState(false);
  const form = useForm<CreateUserValues>({
    initialValues: { email: '', wayIn: 'password', password: '', verified: false, displayName: '' },
    validate: (v) => validateCreateUser(v, { required: t('common.required'), invalidEmail: t('common.invalidEmail') }),
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('users.createTitle')}>
      <form noValidate onSubmit={form.onSubmit(async (v) => {
        setSaving(true);
        try {
          const user = await app.createUser(createUserBody(v));
          notifications.show({ color: 'green', message: t('users.createdToast', { email: user.primaryEmail ?? user.id }) });
          form.reset();
          onCreated();
        } catch (e) {
          showFieldError(form, e, 'email', [
            { field: 'email', codes: ['USER_EMAIL_ALREADY_EXISTS'], schemaPath: /primary_email/ },
            { field: 'password', schemaPath: /password/ },
            { field: 'displayName', schemaPath: /display_name/ },
          ]);
        } finally {
          setSaving(false);
        }
      })}>
        <Stack>
          <TextInput label={t('users.email')} type="email" data-autofocus {...form.getInputProps('email')} />
          <Radio.Group label={t('users.wayIn')} {...form.getInputProps('wayIn')}>
            <Stack gap={6} mt={6}>
              <Radio value="password" label={t('users.wayInPassword')} />
              {/* The service refuses sign-in codes for a user of a project that has them off: offered, but not chosen. */}
              <Radio
                value="code" label={t('users.wayInCode')} disabled={!project.config.magicLinkEnabled}
                description={project.config.magicLinkEnabled ? undefined : <span data-testid="codes-off">{t('users.codesOffHint')}</span>}
              />
            </Stack>
          </Radio.Group>
          {form.values.wayIn === 'password' && <PasswordInput label={t('users.password')} autoComplete="new-password" {...form.getInputProps('password')} />}
          <Checkbox label={t('users.emailVerified')} {...form.getInputProps('verified', { type: 'checkbox' })} />
          <TextInput label={t('users.displayName')} {...form.getInputProps('displayName')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={saving} disabled={saving}>{t('users.create')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
