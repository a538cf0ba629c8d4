// The API keys of a user or a team (client-library §7.5): "Create API Key", the create dialog, the one-time
// display of the new key, and the table with search, a status filter and revoke.
import { useState } from 'react';
import { Badge, Button, Checkbox, CopyButton, Group, Modal, MultiSelect, Select, Stack, Table, Text, TextInput, VisuallyHidden, useMatches } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslate } from '../context';
import { useRuleValidator } from '../components/use-form-rules';
import { apiKeyStatus, DEFAULT_EXPIRY, EXPIRY_CHOICES, expiresAtFor, expiryDisplay, filterApiKeys, lastFour, sortApiKeys, type ApiKeyLike, type ApiKeyStatus, type ExpiryChoice } from '../lib/api-key-rules';
import { apiKeyDescriptionRule } from '../lib/settings-validation';
import { ActionMenuCell, StackedCell, TextCell } from '../widgets/table-cells';
import { useSettingsAction } from './settings-actions';

export type PanelKey = ApiKeyLike & { id: string; revoke(): Promise<void> };

export interface ApiKeyPanelProps {
  /** The keys, from the owner's hook (useUserApiKeys, useTeamApiKeys). */
  keys: readonly PanelKey[];
  create: (o: { description: string; expiresAt: Date }) => Promise<{ value: string | { lastFour: string } }>;
}

// Colours whose light badges keep AA contrast in both schemes with the kit's theme (teal's does not).
const STATUS_BADGE: Record<ApiKeyStatus, { color: string; variant: 'light' | 'outline' }> = {
  valid: { color: 'indigo', variant: 'light' },
  expired: { color: 'gray', variant: 'outline' },
  revoked: { color: 'red', variant: 'light' },
};

export function ApiKeyPanel({ keys, create }: ApiKeyPanelProps) {
  const t = useTranslate();
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<PanelKey | null>(null);
  const [search, setSearch] = useState('');
  const [statuses, setStatuses] = useState<ApiKeyStatus[]>([]);
  const rows = filterApiKeys(sortApiKeys(keys), search, statuses);
  // On a phone the key's ending and dates fold under its description instead of scrolling sideways.
  const tableMinWidth = useMatches({ base: 0, sm: 640 });
  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Group gap="xs" wrap="wrap" style={{ flex: '1 1 260px' }}>
          <TextInput aria-label={t('settings.apiKeys.search')} placeholder={t('settings.apiKeys.search')} value={search} onChange={(e) => setSearch(e.currentTarget.value)} size="sm" style={{ flex: '1 1 140px' }} />
          <MultiSelect
            aria-label={t('settings.apiKeys.status')}
            placeholder={statuses.length ? undefined : t('settings.apiKeys.status')}
            data={(['valid', 'expired', 'revoked'] as const).map((s) => ({ value: s, label: t(`settings.apiKeys.status.${s}`) }))}
            value={statuses}
            onChange={(v) => setStatuses(v as ApiKeyStatus[])}
            size="sm"
            clearable
            style={{ flex: '1 1 140px' }}
          />
        </Group>
        <Button size="sm" onClick={() => setCreating(true)}>{t('settings.apiKeys.create')}</Button>
      </Group>
      <Table.ScrollContainer minWidth={tableMinWidth}>
        <Table verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('settings.apiKeys.descriptionLabel')}</Table.Th>
              <Table.Th>{t('settings.apiKeys.status')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('settings.apiKeys.clientKey')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('settings.apiKeys.expiresAt')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('settings.apiKeys.createdAt')}</Table.Th>
              <Table.Th><VisuallyHidden>{t('settings.actions')}</VisuallyHidden></Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 && (
              <Table.Tr><Table.Td colSpan={6}><Text size="sm" c="dimmed" ta="center">{t(keys.length ? 'settings.apiKeys.noMatch' : 'settings.apiKeys.empty')}</Text></Table.Td></Table.Tr>
            )}
            {rows.map((key) => {
              const status = apiKeyStatus(key);
              const expiry = expiryDisplay(key);
              const expires = expiry.kind === 'dash' ? '-' : expiry.kind === 'never' ? t('settings.never') : expiry.date.toLocaleDateString();
              return (
                <Table.Tr key={key.id} data-testid="api-key-row">
                  <StackedCell
                    main={<Text size="sm" style={{ overflowWrap: 'anywhere' }}>{key.description}</Text>}
                    sub={<Text span inherit hiddenFrom="sm">
                      <code>*******{lastFour(key)}</code>
                      <Text span inherit display="block">{t('settings.apiKeys.expiresAt')}: {expires}</Text>
                      <Text span inherit display="block">{t('settings.apiKeys.createdAt')}: {key.createdAt.toLocaleDateString()}</Text>
                    </Text>}
                  />
                  <Table.Td><Badge size="sm" variant={STATUS_BADGE[status].variant} color={STATUS_BADGE[status].color}>{t(`settings.apiKeys.status.${status}`)}</Badge></Table.Td>
                  <TextCell visibleFrom="sm"><code>*******{lastFour(key)}</code></TextCell>
                  <TextCell visibleFrom="sm">{expires}</TextCell>
                  <TextCell visibleFrom="sm">{key.createdAt.toLocaleDateString()}</TextCell>
                  {status === 'valid' ? (
                    <ActionMenuCell label={t('settings.apiKeys.menu', { description: key.description })} items={[{ label: t('settings.apiKeys.revoke'), danger: true, onClick: () => setRevoking(key) }]} />
                  ) : <Table.Td />}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <CreateDialog opened={creating} onClose={() => setCreating(false)} create={create} onCreated={(secret) => { setCreating(false); setShown(secret); }} />
      <SecretDialog secret={shown} onClose={() => setShown(null)} />
      <RevokeDialog apiKey={revoking} onClose={() => setRevoking(null)} />
    </Stack>
  );
}

function CreateDialog({ opened, onClose, create, onCreated }: { opened: boolean; onClose: () => void; create: ApiKeyPanelProps['create']; onCreated: (secret: string) => void }) {
  const t = useTranslate();
  const rule = useRuleValidator();
  const run = useSettingsAction();
  const [busy, setBusy] = useState(false);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { description: '', expiresIn: DEFAULT_EXPIRY as ExpiryChoice },
    validate: { description: rule(apiKeyDescriptionRule) },
  });
  const close = () => { form.reset(); onClose(); };
  return (
    <Modal opened={opened} onClose={close} title={t('settings.apiKeys.create')} centered>
      <form noValidate onSubmit={form.onSubmit(async ({ description, expiresIn }) => {
        setBusy(true);
        let secret = '';
        const ok = await run(async () => {
          const created = await create({ description: description.trim(), expiresAt: expiresAtFor(expiresIn) });
          secret = typeof created.value === 'string' ? created.value : '';
        });
        setBusy(false);
        if (ok) { form.reset(); onCreated(secret); }
      })}>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">{t('settings.apiKeys.description')}</Text>
          <TextInput label={t('settings.apiKeys.descriptionLabel')} placeholder={t('settings.apiKeys.descriptionPlaceholder')} data-autofocus {...form.getInputProps('description')} key={form.key('description')} />
          <Select
            label={t('settings.apiKeys.expiresIn')}
            data={EXPIRY_CHOICES.map((c) => ({ value: c.value, label: t(c.key) }))}
            allowDeselect={false}
            {...form.getInputProps('expiresIn')}
            key={form.key('expiresIn')}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close} disabled={busy}>{t('settings.cancel')}</Button>
            <Button type="submit" loading={busy}>{t('settings.apiKeys.createSubmit')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Shown once: it can only be closed after ticking that the key will not be shown again. */
function SecretDialog({ secret, onClose }: { secret: string | null; onClose: () => void }) {
  const t = useTranslate();
  const [understood, setUnderstood] = useState(false);
  const close = () => { setUnderstood(false); onClose(); };
  return (
    <Modal opened={secret !== null} onClose={() => {}} withCloseButton={false} closeOnClickOutside={false} closeOnEscape={false} title={t('settings.apiKeys.shownTitle')} centered>
      <Stack gap="sm">
        <Text size="sm">{t('settings.apiKeys.shownText')} <b>{t('settings.apiKeys.shownWarning')}</b></Text>
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput label={t('settings.apiKeys.secret')} value={secret ?? ''} readOnly ff="monospace" style={{ flex: 1 }} onFocus={(e) => e.currentTarget.select()} data-testid="api-key-secret" />
          <CopyButton value={secret ?? ''}>
            {({ copied, copy }) => <Button variant="default" onClick={copy}>{t(copied ? 'settings.apiKeys.copied' : 'settings.apiKeys.copy')}</Button>}
          </CopyButton>
        </Group>
        <Checkbox label={t('settings.apiKeys.understand')} checked={understood} onChange={(e) => setUnderstood(e.currentTarget.checked)} />
        <Group justify="flex-end"><Button disabled={!understood} onClick={close}>{t('settings.apiKeys.close')}</Button></Group>
      </Stack>
    </Modal>
  );
}

function RevokeDialog({ apiKey, onClose }: { apiKey: PanelKey | null; onClose: () => void }) {
  const t = useTranslate();
  const run = useSettingsAction();
  const [confirmed, setConfirmed] = useState(false);
  const [busy, setBusy] = useState(false);
  const close = () => { setConfirmed(false); onClose(); };
  return (
    <Modal opened={apiKey !== null} onClose={close} title={t('settings.apiKeys.revokeTitle')} centered>
      <Stack gap="sm">
        <Text size="sm">{t('settings.apiKeys.revokeText', { lastFour: apiKey ? lastFour(apiKey) : '' })}</Text>
        <Checkbox label={t('settings.apiKeys.revokeConfirm')} checked={confirmed} onChange={(e) => setConfirmed(e.currentTarget.checked)} />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={close} disabled={busy}>{t('settings.cancel')}</Button>
          <Button color="red" disabled={!confirmed} loading={busy} onClick={async () => {
            setBusy(true);
            const ok = await run(() => apiKey!.revoke());
            setBusy(false);
            if (ok) close();
          }}>{t('settings.apiKeys.revokeSubmit')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
