// Create a team (client-library §7.8); afterwards the page goes to the new team's item.
import { useState } from 'react';
import { Button, Group, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { CurrentUser } from '@gatehouse/shared/client';
import { useTranslate } from '../context';
import { useRuleValidator } from '../components/use-form-rules';
import { useProject } from '../hooks/use-project';
import { teamNameRule } from '../lib/settings-validation';
import { MessageCard } from '../components/message-card';
import { SettingsSection } from '../widgets/settings-section';
import { useSettingsAction } from './settings-actions';

export function CreateTeamSection({ user, onCreated }: { user: CurrentUser; onCreated: (teamId: string) => void }) {
  const t = useTranslate();
  const project = useProject();
  const rule = useRuleValidator();
  const run = useSettingsAction();
  const [busy, setBusy] = useState(false);
  const form = useForm({ mode: 'uncontrolled', initialValues: { displayName: '' }, validate: { displayName: rule(teamNameRule) } });
  if (!project.config.clientTeamCreationEnabled) return <MessageCard title={t('settings.createTeam.disabled')} />;
  return (
    <SettingsSection id="create-team" title={t('settings.createTeam.title')} description={t('settings.createTeam.description')}>
      <form noValidate onSubmit={form.onSubmit(async ({ displayName }) => {
        setBusy(true);
        let id = '';
        const ok = await run(async () => { id = (await user.createTeam({ displayName: displayName.trim() })).id; });
        setBusy(false);
        if (ok) { form.reset(); onCreated(id); }
      })}>
        <Group gap="xs" align="flex-start" wrap="wrap">
          <TextInput aria-label={t('settings.createTeam.label')} placeholder={t('settings.createTeam.label')} style={{ flex: '1 1 220px' }} {...form.getInputProps('displayName')} key={form.key('displayName')} />
          <Button type="submit" size="sm" loading={busy}>{t('settings.createTeam.submit')}</Button>
        </Group>
      </form>
    </SettingsSection>
  );
}
