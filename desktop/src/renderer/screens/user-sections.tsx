// A user's metadata (three JSON editors, refused before sending when not JSON) and contact channels.
import { useState } from 'react';
import { ActionIcon, Badge, Button, Checkbox, Group, Menu, SimpleGrid, Stack, Table, Text, TextInput, Textarea, useMatches } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconDots, IconPlus } from '@tabler/icons-react';
import type { ServerContactChannel, ServerUser } from '@gatehouse/shared/client';
import { isValidEmail } from '@gatehouse/shared/rules/email';
import { useUserContactChannels } from '../hooks/use-user-reads';
import { StatusBadge } from '../components/status-badge';
import { useProjectContext } from '../hooks/use-project-context';
import { showFieldError } from '../components/field-error';
import { METADATA_TIERS, metadataText, parseMetadata, type MetadataTier } from '../lib/users';
import { t } from '../messages';
import { SectionCard as Section } from '../components/section-card';
import { runAction } from '../components/notify';

export function MetadataSection({ user }: { user: ServerUser }) {
  return (
    <Section title={t('users.metadata')}>
      <Text size="sm" c="dimmed">{t('users.metadataHint')}</Text>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        {METADATA_TIERS.map((tier) => <MetadataEditor key={tier} user={user} tier={tier} />)}
      </SimpleGrid>
    </Section>
  );
}

function MetadataEditor({ user, tier }: { user: ServerUser; tier: MetadataTier }) {
  const [saving, setSaving] = useState(false);
  const form = useForm({
    initialValues: { text: metadataText(user[tier]) },
    validate: { text: (v) => { const p = parseMetadata(v); return p.ok ? null : p.text; } },
  });
  return (
    <form noValidate onSubmit={form.onSubmit(async ({ text }) => {
      const parsed = parseMetadata(text);
      if (!parsed.ok) return;
      setSaving(true);
      try {
        await user.update({ [tier]: parsed.value as never });
        notifications.show({ color: 'green', message: t('users.metadataSaved', { tier: t(`users.${tier}`) }) });
      } catch (e) {
        showFieldError(form, e, 'text');
      } finally {
        setSaving(false);
      }
    })}>
      <Stack gap="xs">
        <Textarea
          label={t(`users.${tier}`)} description={t(`users.${tier}.hint`)} autosize minRows={4} maxRows={14} spellCheck={false}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} {...form.getInputProps('text')}
        />
        <Group justify="flex-end">
          <Button type="submit" size="xs" variant="default" loading={saving} aria-label={t('users.saveTier', { tier: t(`users.${tier}`) })}>{t('common.save')}</Button>
        </Group>
      </Stack>
    </form>
  );
}

export function ContactChannelsSection({ user }: { user: ServerUser }) {
  const channels = useUserContactChannels(user);
  // On a phone the address and its badges wrap in their cells instead of scrolling sideways.
  const channelsMinWidth = useMatches({ base: 0, sm: 480 });
  return (
    <Section title={t('users.channels')}>
      {channels.length === 0 ? <Text size="sm" c="dimmed">{t('users.noChannels')}</Text> : (
        <Table.ScrollContainer minWidth={channelsMinWidth}>
          <Table verticalSpacing="xs" aria-label={t('users.channels')}>
            <Table.Tbody>
              {channels.map((c) => <ChannelRow key={c.id} channel={c} />)}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <AddChannelForm user={user} />
    </Section>
  );
}

function ChannelRow({ channel: c }: { channel: ServerContactChannel }) {
  const { connection } = useProjectContext();
  const act = (what: () => Promise<void>, done: string) => runAction(what, done);
  return (
    <Table.Tr data-testid="channel-row">
      <Table.Td style={{ overflowWrap: 'anywhere' }}>{c.value}</Table.Td>
      <Table.Td>
        <Group gap={4}>
          <StatusBadge color={c.isVerified ? 'green' : 'gray'} size="xs">{c.isVerified ? t('users.verified') : t('users.unverified')}</StatusBadge>
          {c.isPrimary && <Badge size="sm" variant="default">{t('users.primary')}</Badge>}
          {c.usedForAuth && <Badge size="sm" variant="default">{t('users.usedForSignIn')}</Badge>}
        </Group>
      </Table.Td>
      <Table.Td ta="right">
        <Menu position="bottom-end">
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={t('users.channelActions', { value: c.value })}><IconDots size={16} aria-hidden /></ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => act(() => c.update({ isVerified: !c.isVerified }), t('users.channelSaved'))}>
              {c.isVerified ? t('users.markUnverified') : t('users.markVerified')}
            </Menu.Item>
            {!c.isPrimary && <Menu.Item onClick={() => act(() => c.update({ isPrimary: true }), t('users.channelSaved'))}>{t('users.makePrimary')}</Menu.Item>}
            <Menu.Item onClick={() => act(() => c.update({ usedForAuth: !c.usedForAuth }), t('users.channelSaved'))}>
              {c.usedForAuth ? t('users.stopSignIn') : t('users.useForSignIn')}
            </Menu.Item>
            {!c.isVerified && (
              <Menu.Item onClick={() => act(
                () => c.sendVerificationEmail({ callbackUrl: new URL('/handler/email-verification', connection.serviceUrl).toString() }),
                t('users.verificationSent', { value: c.value }),
              )}>{t('users.sendVerification')}</Menu.Item>
            )}
            <Menu.Item color="red" onClick={() => act(() => c.delete(), t('users.channelRemoved'))}>{t('common.remove')}</Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Table.Td>
    </Table.Tr>
  );
}

function AddChannelForm({ user }: { user: ServerUser }) {
  const [saving, setSaving] = useState(false);
  const form = useForm({
    initialValues: { value: '', isVerified: false, usedForAuth: false, isPrimary: false },
    validate: { value: (v) => (!v.trim() ? t('common.required') : isValidEmail(v.trim()) ? null : t('common.invalidEmail')) },
  });
  return (
    <form noValidate onSubmit={form.onSubmit(async (v) => {
      setSaving(true);
      try {
        await user.createContactChannel({ type: 'email', value: v.value.trim(), isVerified: v.isVerified, usedForAuth: v.usedForAuth, isPrimary: v.isPrimary });
        form.reset();
        notifications.show({ color: 'green', message: t('users.channelAdded') });
      } catch (e) {
        showFieldError(form, e, 'value');
      } finally {
        setSaving(false);
      }
    })}>
      <Group align="flex-end" wrap="wrap">
        <TextInput label={t('users.addChannel')} type="email" style={{ flex: '1 1 220px' }} {...form.getInputProps('value')} />
        <Checkbox label={t('users.verified')} mb={8} {...form.getInputProps('isVerified', { type: 'checkbox' })} />
        <Checkbox label={t('users.usedForSignIn')} mb={8} {...form.getInputProps('usedForAuth', { type: 'checkbox' })} />
        <Checkbox label={t('users.primary')} mb={8} {...form.getInputProps('isPrimary', { type: 'checkbox' })} />
        <Button type="submit" variant="default" leftSection={<IconPlus size={16} aria-hidden />} loading={saving}>{t('users.add')}</Button>
      </Group>
    </form>
  );
}
