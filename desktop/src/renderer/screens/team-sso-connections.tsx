// The Enterprise SSO tab's connections: add the organization's SAML IdP (its metadata pasted or by URL) or OpenID
// provider; each shows what the IdP's administrator enters (entity id, ACS, SP metadata; or the redirect URI), can be
// switched off, and deleted.
import { useState } from 'react';
import { Anchor, Button, Card, Checkbox, Group, Modal, PasswordInput, Stack, Switch, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDownload, IconExternalLink, IconPlus } from '@tabler/icons-react';
import type { ServerTeam, SsoConnection } from '@gatehouse/shared/client';
import { ConfirmModal } from '../components/confirm-modal';
import { CopyField } from '../components/copy-field';
import { EmptyState } from '../components/empty-state';
import { StatusBadge } from '../components/status-badge';
import { showFieldError } from '../components/field-error';
import { runAction } from '../components/notify';
import { useSsoConnections } from '../hooks/use-team-enterprise';
import { oidcFormProblems, samlFormProblems, type OidcFormValues, type SamlFormValues } from '../lib/team-enterprise';
import { t } from '../messages';

export function TeamSsoConnectionsCard({ team }: { team: ServerTeam }) {
  const connections = useSsoConnections(team);
  const [adding, setAdding] = useState<'saml' | 'oidc' | null>(null);
  return (
    <Card withBorder padding="lg" component="section" aria-label={t('enterprise.connections')}>
      <Stack>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h4">{t('enterprise.connections')}</Title>
          <Group gap="xs">
            <Button variant="default" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding('saml')}>{t('enterprise.addSaml')}</Button>
            <Button variant="default" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding('oidc')}>{t('enterprise.addOidc')}</Button>
          </Group>
        </Group>
        {connections.length === 0 ? <EmptyState text={t('enterprise.connectionsEmpty')} /> : connections.map((c) => <ConnectionRow key={c.id} connection={c} />)}
      </Stack>
      {adding === 'saml' && <SamlModal team={team} onClose={() => setAdding(null)} />}
      {adding === 'oidc' && <OidcModal team={team} onClose={() => setAdding(null)} />}
    </Card>
  );
}

function ConnectionRow({ connection: c }: { connection: SsoConnection }) {
  const [deleting, setDeleting] = useState(false);
  return (
    <Card withBorder radius="md" padding="md" data-testid={`connection-${c.displayName}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="sm" wrap="wrap">
            <Text fw={600}>{c.displayName}</Text>
            <Text size="sm" c="dimmed">{t(c.type === 'saml' ? 'enterprise.saml' : 'enterprise.oidc')}</Text>
            <StatusBadge color={c.enabled ? 'green' : 'gray'}>{t(c.enabled ? 'enterprise.enabled' : 'enterprise.disabled')}</StatusBadge>
          </Group>
          <Group gap="xs">
            <Button size="xs" variant="default" leftSection={<IconExternalLink size={14} aria-hidden />} onClick={() => void runAction(async () => { window.open((await c.startTest()).url, '_blank', 'noopener'); }, t('enterprise.testStarted'))}>
              {t('enterprise.test')}
            </Button>
            <Button size="xs" variant="subtle" color="red" aria-label={t('enterprise.deleteConnection', { name: c.displayName })} onClick={() => setDeleting(true)}>{t('enterprise.delete')}</Button>
          </Group>
        </Group>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>{t('enterprise.idp', { idp: (c.type === 'saml' ? c.idpEntityId : c.issuer) ?? '' })}</Text>
        {c.type === 'saml' ? (
          <>
            <CopyField label={t('enterprise.spEntityId')} value={c.spEntityId ?? ''} />
            <CopyField label={t('enterprise.acsUrl')} value={c.acsUrl ?? ''} />
            <Anchor href={c.spMetadataUrl ?? undefined} download size="sm"><Group gap={4} wrap="nowrap"><IconDownload size={14} aria-hidden />{t('enterprise.spMetadata')}</Group></Anchor>
          </>
        ) : (
          <CopyField label={t('enterprise.redirectUri')} value={c.redirectUri ?? ''} />
        )}
        <Switch
          checked={c.enabled}
          label={t('enterprise.enableConnection', { name: c.displayName })}
          onChange={(e) => {
            const enabled = e.currentTarget.checked;
            void runAction(() => c.update({ enabled }), t('enterprise.connectionUpdated'));
          }}
        />
      </Stack>
      {deleting && (
        <ConfirmModal
          title={t('enterprise.deleteConnection', { name: c.displayName })}
          text={t('enterprise.deleteConnectionText')}
          confirmLabel={t('enterprise.delete')}
          onClose={() => setDeleting(false)}
          onConfirm={async () => { await c.delete(); setDeleting(false); }}
        />
      )}
    </Card>
  );
}

function SamlModal({ team, onClose }: { team: ServerTeam; onClose(): void }) {
  const [saving, setSaving] = useState(false);
  const form = useForm<SamlFormValues>({
    initialValues: { displayName: '', metadataXml: '', metadataUrl: '', idpEnforcesMfa: false },
    validate: (v) => Object.fromEntries(Object.entries(samlFormProblems(v)).map(([k, key]) => [k, t(key)])),
  });
  return (
    <Modal opened onClose={onClose} title={t('enterprise.addSamlTitle')} size="lg">
      <form noValidate onSubmit={form.onSubmit(async (v) => {
        setSaving(true);
        try {
          await team.enterprise.createSsoConnection('saml', {
            displayName: v.displayName.trim() || undefined, idpEnforcesMfa: v.idpEnforcesMfa,
            ...(v.metadataXml.trim() ? { idpMetadataXml: v.metadataXml } : { idpMetadataUrl: v.metadataUrl.trim() }),
          });
          onClose();
        } catch (e) {
          showFieldError(form, e, 'metadataXml');
          setSaving(false);
        }
      })}>
        <Stack>
          <TextInput label={t('enterprise.connectionName')} placeholder={t('enterprise.connectionNamePlaceholder')} data-autofocus {...form.getInputProps('displayName')} />
          <Textarea label={t('enterprise.metadataXml')} description={t('enterprise.metadataXmlHint')} autosize minRows={4} maxRows={10} ff="monospace" {...form.getInputProps('metadataXml')} />
          <TextInput label={t('enterprise.metadataUrl')} placeholder="https://" {...form.getInputProps('metadataUrl')} />
          <Checkbox label={t('enterprise.idpEnforcesMfa')} {...form.getInputProps('idpEnforcesMfa', { type: 'checkbox' })} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={saving} disabled={saving}>{t('enterprise.addSaml')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function OidcModal({ team, onClose }: { team: ServerTeam; onClose(): void }) {
  const [saving, setSaving] = useState(false);
  const form = useForm<OidcFormValues>({
    initialValues: { displayName: '', issuer: '', clientId: '', clientSecret: '', idpEnforcesMfa: false },
    validate: (v) => Object.fromEntries(Object.entries(oidcFormProblems(v)).map(([k, key]) => [k, t(key)])),
  });
  return (
    <Modal opened onClose={onClose} title={t('enterprise.addOidcTitle')} size="lg">
      <form noValidate onSubmit={form.onSubmit(async (v) => {
        setSaving(true);
        try {
          await team.enterprise.createSsoConnection('oidc', {
            displayName: v.displayName.trim() || undefined, issuer: v.issuer.trim(), clientId: v.clientId.trim(),
            clientSecret: v.clientSecret || undefined, idpEnforcesMfa: v.idpEnforcesMfa,
          });
          onClose();
        } catch (e) {
          showFieldError(form, e, 'issuer');
          setSaving(false);
        }
      })}>
        <Stack>
          <TextInput label={t('enterprise.connectionName')} placeholder={t('enterprise.connectionNamePlaceholder')} data-autofocus {...form.getInputProps('displayName')} />
          <TextInput label={t('enterprise.issuer')} placeholder={t('enterprise.issuerPlaceholder')} withAsterisk {...form.getInputProps('issuer')} />
          <TextInput label={t('enterprise.clientId')} withAsterisk {...form.getInputProps('clientId')} />
          <PasswordInput label={t('enterprise.clientSecret')} {...form.getInputProps('clientSecret')} />
          <Checkbox label={t('enterprise.idpEnforcesMfa')} {...form.getInputProps('idpEnforcesMfa', { type: 'checkbox' })} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={saving} disabled={saving}>{t('enterprise.addOidc')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
