// Emails (client-library §7.3): add an address (a verification mail goes out at once), the table with its
// badges and action menu. The rules of the menu are in lib/email-rules.ts.
import { useState } from 'react';
import { Box, Button, Group, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { KnownError } from '@gatehouse/shared/known-errors/base';
import type { ContactChannel, CurrentUser } from '@gatehouse/shared/client';
import { useTranslate } from '../context';
import { useContactChannels } from '../hooks/use-user-data';
import { emailMenu, newEmailProblem, sortEmails, type EmailAction } from '../lib/email-rules';
import type { MessageKey } from '../messages';
import { ActionMenuCell, BadgeCell, Badges } from '../widgets/table-cells';
import { SettingsSection } from '../widgets/settings-section';
import { notifyFailure, notifySuccess, useSettingsAction } from './settings-actions';
import { ErrorMessage } from '../components/error-message';

const ACTION_LABEL: Record<EmailAction, MessageKey> = {
  'send-verification': 'settings.emails.sendVerification',
  'set-primary': 'settings.emails.setPrimary',
  'use-for-sign-in': 'settings.emails.useForSignIn',
  'stop-sign-in': 'settings.emails.stopSignIn',
  remove: 'settings.emails.remove',
};

export function EmailsSection({ user }: { user: CurrentUser }) {
  const t = useTranslate();
  const channels = useContactChannels(user);
  const emails = sortEmails(channels.filter((c) => c.type === 'email'));
  const [adding, setAdding] = useState(channels.length === 0);
  return (
    <SettingsSection
      id="emails"
      title={t('settings.emails.title')}
      actions={adding ? null : <Button variant="default" size="sm" onClick={() => setAdding(true)}>{t('settings.emails.add')}</Button>}
    >
      {adding && <AddEmailForm user={user} channels={channels} onDone={() => setAdding(false)} />}
      {emails.length > 0 ? (
        <Table.ScrollContainer minWidth={320}>
          <Table verticalSpacing="xs" aria-labelledby="emails-title">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('settings.emails.column')}</Table.Th>
                <Table.Th visibleFrom="sm"><VisuallyHidden>{t('settings.emails.primary')}</VisuallyHidden></Table.Th>
                <Table.Th><VisuallyHidden>{t('settings.actions')}</VisuallyHidden></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {emails.map((channel) => <EmailRow key={channel.id} channel={channel} channels={emails} />)}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        !adding && <Text size="sm" c="dimmed">{t('settings.emails.empty')}</Text>
      )}
    </SettingsSection>
  );
}

function EmailRow({ channel, channels }: { channel: ContactChannel; channels: ContactChannel[] }) {
  const t = useTranslate();
  const run = useSettingsAction();
  const perform = (action: EmailAction) => {
    switch (action) {
      case 'send-verification':
        return void run(async () => {
          await channel.sendVerificationEmail();
          notifySuccess(t('settings.emails.verificationSent', { email: channel.value }));
        });
      case 'set-primary':
        return void run(() => channel.update({ isPrimary: true }));
      case 'use-for-sign-in':
        // Fix of client-library §8 #22: errors other than "used by someone else" are reported too.
        return void run(() => channel.update({ usedForAuth: true }), (err) => {
          if (!(err instanceof KnownError && err.errorCode === 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE')) return false;
          notifyFailure(t, t('settings.emails.usedBySomeoneElse'));
          return true;
        });
      case 'stop-sign-in':
        return void run(() => channel.update({ usedForAuth: false }));
      case 'remove':
        return void run(() => channel.delete());
    }
  };
  const badges = [
    ...(channel.isPrimary ? [{ label: t('settings.emails.primary'), color: 'indigo' }] : []),
    ...(!channel.isVerified ? [{ label: t('settings.emails.unverified'), color: 'red' }] : []),
    ...(channel.usedForAuth ? [{ label: t('settings.emails.usedForSignIn'), variant: 'outline' as const }] : []),
  ];
  return (
    <Table.Tr>
      {/* On a phone the badges go under the address, which then has the row's width to itself. */}
      <Table.Td>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{channel.value}</Text>
        {badges.length > 0 && <Box mt={4} hiddenFrom="sm"><Badges badges={badges} /></Box>}
      </Table.Td>
      <BadgeCell badges={badges} visibleFrom="sm" />
      <ActionMenuCell
        label={t('settings.emails.menu', { email: channel.value })}
        items={emailMenu(channel, channels).map((item) => ({
          label: t(ACTION_LABEL[item.action]),
          danger: item.action === 'remove',
          disabledReason: item.disabledReason ? t(item.disabledReason) : null,
          onClick: () => perform(item.action),
        }))}
      />
    </Table.Tr>
  );
}

function AddEmailForm({ user, channels, onDone }: { user: CurrentUser; channels: ContactChannel[]; onDone: () => void }) {
  const t = useTranslate();
  const run = useSettingsAction();
  const [busy, setBusy] = useState(false);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email: '' },
    validate: { email: (value) => { const key = newEmailProblem(value, channels); return key ? t(key) : null; } },
  });
  const close = () => { form.reset(); onDone(); };
  return (
    <form noValidate onSubmit={form.onSubmit(async ({ email }) => {
      setBusy(true);
      const ok = await run(async () => {
        await user.createContactChannel({ type: 'email', value: email, usedForAuth: false });
        const created = (await user.listContactChannels()).find((c) => c.value === email);
        if (created && !created.isVerified) await created.sendVerificationEmail();
      }, (err) => {
        // Shown next to the field: the form stays open for another try.
        form.setFieldError('email', err instanceof KnownError ? <ErrorMessage error={err} /> : t('settings.emails.addFailed'));
        return true;
      });
      setBusy(false);
      if (ok) close();
    })}>
      <Group gap="xs" align="flex-start" mb="sm" wrap="wrap">
        <TextInput
          aria-label={t('settings.emails.inputLabel')}
          placeholder={t('settings.emails.placeholder')}
          type="email"
          autoComplete="email"
          autoFocus
          style={{ flex: '1 1 220px' }}
          {...form.getInputProps('email')}
          key={form.key('email')}
        />
        <Group gap="xs" wrap="nowrap">
          <Button type="submit" size="sm" loading={busy}>{t('settings.emails.addSubmit')}</Button>
          <Button variant="default" size="sm" onClick={close} disabled={busy}>{t('settings.cancel')}</Button>
        </Group>
      </Group>
    </form>
  );
}
