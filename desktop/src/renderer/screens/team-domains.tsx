// The Enterprise SSO tab's domains: add the organization's email domain, publish the TXT record shown, verify it,
// require SSO for it, remove it.
import { useState } from 'react';
import { Button, Card, Group, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconWorldPlus } from '@tabler/icons-react';
import type { ServerTeam, TeamDomain } from '@gatehouse/shared/client';
import { ConfirmModal } from '../components/confirm-modal';
import { CopyField } from '../components/copy-field';
import { EmptyState } from '../components/empty-state';
import { StatusBadge } from '../components/status-badge';
import { showFieldError } from '../components/field-error';
import { runAction } from '../components/notify';
import { useTeamDomains } from '../hooks/use-team-enterprise';
import { domainProblem } from '../lib/team-enterprise';
import { formatDateTime } from '../lib/format';
import { t } from '../messages';

export function TeamDomainsCard({ team }: { team: ServerTeam }) {
  const domains = useTeamDomains(team);
  const [adding, setAdding] = useState(false);
  const form = useForm({ initialValues: { domain: '' }, validate: { domain: (v) => { const p = domainProblem(v); return p ? t(p) : null; } } });
  return (
    <Card withBorder padding="lg" component="section" aria-label={t('enterprise.domains')}>
      <Stack>
        <Stack gap={4}>
          <Title order={2} size="h4">{t('enterprise.domains')}</Title>
          <Text size="sm" c="dimmed">{t('enterprise.domainsIntro')}</Text>
        </Stack>
        <form noValidate onSubmit={form.onSubmit(async ({ domain }) => {
          setAdding(true);
          try {
            await team.enterprise.claimDomain(domain.trim());
            form.reset();
          } catch (e) {
            showFieldError(form, e, 'domain');
          } finally {
            setAdding(false);
          }
        })}>
          <Group align="flex-end" wrap="wrap" gap="sm">
            <TextInput label={t('enterprise.domainLabel')} placeholder={t('enterprise.domainPlaceholder')} style={{ flex: '1 1 220px' }} {...form.getInputProps('domain')} />
            <Button type="submit" variant="default" loading={adding} leftSection={<IconWorldPlus size={16} aria-hidden />}>{t('enterprise.addDomain')}</Button>
          </Group>
        </form>
        {domains.length === 0 ? <EmptyState text={t('enterprise.domainsEmpty')} /> : domains.map((d) => <DomainRow key={d.id} domain={d} />)}
      </Stack>
    </Card>
  );
}

function DomainRow({ domain }: { domain: TeamDomain }) {
  const [removing, setRemoving] = useState(false);
  const [verifying, setVerifying] = useState(false);
  const verified = domain.status === 'verified';
  return (
    <Card withBorder radius="md" padding="md" data-testid={`domain-${domain.domain}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="sm" wrap="wrap">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>{domain.domain}</Text>
            <StatusBadge color={verified ? 'green' : 'yellow'}>{verified ? t('enterprise.verified') : t('enterprise.pending')}</StatusBadge>
          </Group>
          <Group gap="xs">
            {!verified && (
              <Button size="xs" loading={verifying} onClick={async () => {
                setVerifying(true);
                await runAction(() => domain.verify(), t('enterprise.domainVerified', { domain: domain.domain }));
                setVerifying(false);
              }}>{t('enterprise.verify')}</Button>
            )}
            <Button size="xs" variant="subtle" color="red" aria-label={t('enterprise.removeDomain', { domain: domain.domain })} onClick={() => setRemoving(true)}>{t('enterprise.remove')}</Button>
          </Group>
        </Group>
        {!verified && (
          <>
            <CopyField label={t('enterprise.txtName')} value={domain.txtRecord.name} />
            <CopyField label={t('enterprise.txtValue')} value={domain.txtRecord.value} />
            {domain.lastCheckProblem && domain.lastCheckedAt && (
              <Text size="sm" c="dimmed">{formatDateTime(domain.lastCheckedAt)} · {t('enterprise.lastProblem', { problem: domain.lastCheckProblem })}</Text>
            )}
          </>
        )}
        {verified && (
          <Switch
            checked={domain.ssoRequired}
            label={t('enterprise.requireSso', { domain: domain.domain })}
            description={t('enterprise.requireSsoHint')}
            onChange={(e) => {
              const required = e.currentTarget.checked;
              void runAction(() => domain.setSsoRequired(required), t(required ? 'enterprise.ssoRequiredOn' : 'enterprise.ssoRequiredOff', { domain: domain.domain }));
            }}
          />
        )}
      </Stack>
      {removing && (
        <ConfirmModal
          title={t('enterprise.removeDomain', { domain: domain.domain })}
          text={t('enterprise.removeDomainText')}
          confirmLabel={t('enterprise.remove')}
          onClose={() => setRemoving(false)}
          onConfirm={async () => { await domain.remove(); setRemoving(false); }}
        />
      )}
    </Card>
  );
}
