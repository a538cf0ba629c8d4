// Configuration: the project's name and every field of its config (sign-in methods, teams, localhost, OAuth
// merge strategy, trusted domains with handler paths) and the production-mode switch with its errors.
import { useState } from 'react';
import { ActionIcon, Alert, Button, Card, Group, List, Select, SimpleGrid, Stack, Switch, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCircleCheck, IconPlus, IconTrash } from '@tabler/icons-react';
import { ScreenHeader } from '../components/screen-header';
import { EmptyState } from '../components/empty-state';
import { useAdminProject } from '../hooks/use-project-context';
import {
  MERGE_STRATEGIES, configurationUpdate, configurationValues, domainProductionProblem, productionModeErrors, validateConfiguration,
  type ConfigSwitch,
} from '../lib/configuration-form';
import { showFieldError } from '../components/field-error';
import { t, type MessageKey } from '../messages';
import { notifyError } from '../components/notify';

const GROUPS: { title: MessageKey; switches: ConfigSwitch[] }[] = [
  { title: 'config.signIn', switches: ['signUpEnabled', 'credentialEnabled', 'magicLinkEnabled', 'passkeyEnabled', 'allowLocalhost'] },
  { title: 'config.teams', switches: ['clientTeamCreationEnabled', 'clientUserDeletionEnabled', 'createTeamOnSignUp'] },
];

export function ConfigurationScreen() {
  const project = useAdminProject();
  const [saving, setSaving] = useState(false);
  const form = useForm({ initialValues: configurationValues(project), validate: validateConfiguration });
  // A domain row is judged once it has been left (or the form saved): a row just added reads "https://", which is
  // not yet a URL and not yet a mistake. Saved domains are judged from the start.
  const [judged, setJudged] = useState<boolean[]>(() => form.values.domains.map(() => true));

  const save = form.onSubmit(async (values) => {
    setSaving(true);
    try {
      await project.update(configurationUpdate(values));
      form.resetDirty();
      notifications.show({ color: 'green', message: t('config.saved') });
    } catch (e) {
      showFieldError(form, e, '_form', [
        { field: 'displayName', schemaPath: /display_name/ },
        { field: 'description', schemaPath: /description/ },
        { field: 'domains', schemaPath: /domains/ },
      ]);
    } finally {
      setSaving(false);
    }
  });

  return (
    <Stack gap="lg">
      <ScreenHeader title={t('config.title')} />
      <ProductionModeCard />
      <form onSubmit={(e) => { setJudged(form.values.domains.map(() => true)); save(e); }} noValidate>
        <Stack gap="lg">
          <Card withBorder padding="lg">
            <Stack>
              <Title order={2} size="h4">{t('config.general')}</Title>
              <TextInput label={t('config.displayName')} {...form.getInputProps('displayName')} />
              <Textarea label={t('config.description')} autosize minRows={2} {...form.getInputProps('description')} />
            </Stack>
          </Card>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {GROUPS.map((g) => (
              <Card withBorder padding="lg" key={g.title}>
                <Stack gap="sm">
                  <Title order={2} size="h4">{t(g.title)}</Title>
                  {g.switches.map((s) => <Switch key={s} label={t(`config.${s}` as MessageKey)} {...form.getInputProps(s, { type: 'checkbox' })} />)}
                </Stack>
              </Card>
            ))}
          </SimpleGrid>
          <Card withBorder padding="lg">
            <Select
              label={t('config.mergeStrategy')}
              data={MERGE_STRATEGIES.map((m) => ({ value: m, label: t(`config.merge.${m}`) }))}
              allowDeselect={false}
              {...form.getInputProps('oauthAccountMergeStrategy')}
            />
          </Card>
          <Card withBorder padding="lg">
            <Stack>
              <Group justify="space-between">
                <Title order={2} size="h4">{t('config.domains')}</Title>
                <Button variant="light" size="xs" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => { form.insertListItem('domains', { domain: 'https://', handlerPath: '/handler' }); setJudged((j) => [...j, false]); }}>
                  {t('config.addDomain')}
                </Button>
              </Group>
              {form.values.domains.length === 0 && <EmptyState text={t('config.domainsEmpty')} />}
              {form.values.domains.map((d, i) => {
                const problem = judged[i] !== false && d.domain.trim() ? domainProductionProblem(d.domain.trim()) : null;
                const domainInput = form.getInputProps(`domains.${i}.domain`);
                return (
                  <Stack key={i} gap={4} data-testid="domain-row">
                    <Group align="flex-start" wrap="nowrap">
                      <TextInput
                        style={{ flex: 2 }} label={`${t('config.domain')} ${i + 1}`} {...domainInput}
                        onBlur={(e) => { domainInput.onBlur?.(e); setJudged((j) => j.map((v, k) => (k === i ? true : v))); }}
                      />
                      <TextInput style={{ flex: 1 }} label={`${t('config.handlerPath')} ${i + 1}`} {...form.getInputProps(`domains.${i}.handlerPath`)} />
                      <ActionIcon mt={26} variant="subtle" color="red" size="lg" aria-label={`${t('common.remove')} ${d.domain}`} onClick={() => { form.removeListItem('domains', i); setJudged((j) => j.filter((_, k) => k !== i)); }}>
                        <IconTrash size={16} aria-hidden />
                      </ActionIcon>
                    </Group>
                    {problem && <Text size="xs" data-testid="domain-flag"><IconAlertTriangle size={12} aria-hidden color="var(--mantine-color-orange-6)" /> {problem}</Text>}
                  </Stack>
                );
              })}
              {typeof form.errors.domains === 'string' && <Text c="red" size="sm">{form.errors.domains}</Text>}
            </Stack>
          </Card>
          {form.errors._form && <Alert color="red" role="alert">{form.errors._form}</Alert>}
          <Group justify="flex-end">
            <Button type="submit" loading={saving} disabled={saving}>{t('config.saveSettings')}</Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

function ProductionModeCard() {
  const project = useAdminProject();
  const [saving, setSaving] = useState(false);
  const errors = productionModeErrors(project);
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Switch
          size="md"
          label={t('config.productionMode')}
          description={t('config.productionModeHint')}
          checked={project.isProductionMode}
          disabled={saving}
          onChange={async (e) => {
            const on = e.currentTarget.checked;
            setSaving(true);
            try {
              await project.update({ isProductionMode: on });
              notifications.show({ color: 'green', message: t(on ? 'config.productionOn' : 'config.productionOff') });
            } catch (err) {
              notifyError(err);
            } finally {
              setSaving(false);
            }
          }}
        />
        {errors.length === 0 ? (
          <Text size="sm" data-testid="production-ready"><IconCircleCheck size={14} aria-hidden color="var(--mantine-color-teal-6)" /> {t('config.productionReady')}</Text>
        ) : (
          <Alert color={project.isProductionMode ? 'red' : 'orange'} icon={<IconAlertTriangle aria-hidden />} data-testid="production-errors">
            <List size="sm">{errors.map((m) => <List.Item key={m}>{m}</List.Item>)}</List>
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
