// Email templates: the list by type; editing one shows its subject and bodies beside a live preview rendered with
// sample values, the variables it may use, and "reset to default" (delete).
import { useState } from 'react';
import { Button, Card, Code, Grid, Group, Modal, Select, Stack, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { AdminEmailTemplate } from '@gatehouse/shared/client';
import { EmptyState } from '../components/empty-state';
import { ScreenHeader } from '../components/screen-header';
import { useEmailTemplates } from '../hooks/use-admin-lists';
import { useProjectContext } from '../hooks/use-project-context';
import { OPTIONAL_TEMPLATE_VARIABLES, previewTemplate, templateFormValues, templateVariables, validateTemplate, type OptionalTemplateVariable } from '../lib/email-templates';
import { showFieldError } from '../components/field-error';
import { StatusBadge } from '../components/status-badge';
import { t, type MessageKey } from '../messages';
import { EmailFrame } from '../components/email-frame';

const typeName = (type: string) => t(`templates.type.${type}` as MessageKey);

export function EmailTemplatesScreen() {
  const { app } = useProjectContext();
  const templates = useEmailTemplates();
  const [editing, setEditing] = useState<AdminEmailTemplate | null>(null);
  return (
    <Stack>
      <ScreenHeader title={t('templates.title')} />
      {templates.length === 0 ? <EmptyState text={t('templates.empty')} /> : (
        <Card withBorder padding={0}>
          <Table verticalSpacing="sm" horizontalSpacing="md" aria-label={t('templates.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('templates.type')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('templates.subject')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {templates.map((tpl) => (
                <Table.Tr key={tpl.type} data-testid={`template-${tpl.type}`}>
                  <Table.Td>
                    <Group gap="xs">
                      <Text fw={600} size="sm">{typeName(tpl.type)}</Text>
                      <StatusBadge color={tpl.isDefault ? 'gray' : 'blue'} size="xs">{t(tpl.isDefault ? 'templates.default' : 'templates.custom')}</StatusBadge>
                    </Group>
                    {/* A phone has no room for the subject's column: it goes under the name. */}
                    <Text size="xs" c="dimmed" hiddenFrom="sm" style={{ overflowWrap: 'anywhere' }}>{tpl.subject}</Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm"><Text size="sm" lineClamp={1}>{tpl.subject}</Text></Table.Td>
                  <Table.Td ta="right">
                    <Button size="xs" variant="default" onClick={() => setEditing(tpl)} aria-label={`${t('common.edit')} ${typeName(tpl.type)}`}>{t('common.edit')}</Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      )}
      {editing && <TemplateEditor template={editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}

function TemplateEditor({ template, onClose }: { template: AdminEmailTemplate; onClose(): void }) {
  const { app } = useProjectContext();
  const [saving, setSaving] = useState(false);
  const [confirmReset, setConfirmReset] = useState(false);
  const form = useForm({ initialValues: templateFormValues(template), validate: validateTemplate, validateInputOnBlur: true });
  const [emptied, setEmptied] = useState<OptionalTemplateVariable | null>(null);
  const preview = previewTemplate(template.type, form.values, emptied ?? undefined);
  return (
    <Modal opened onClose={onClose} title={typeName(template.type)} size="min(1100px, 95vw)">
      <form onSubmit={form.onSubmit(async (v) => {
        setSaving(true);
        try {
          await app.updateEmailTemplate(template.type, { subject: v.subject, content: { html: v.html, text: v.text } });
          notifications.show({ color: 'green', message: t('templates.saved') });
          onClose();
        } catch (e) {
          showFieldError(form, e, 'html', [{ field: 'subject', schemaPath: /subject/ }, { field: 'html', codes: ['SCHEMA_ERROR'] }]);
        } finally {
          setSaving(false);
        }
      })}>
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Stack>
              <TextInput label={t('templates.subject')} {...form.getInputProps('subject')} />
              <Textarea label={t('templates.html')} autosize minRows={8} maxRows={16} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }} {...form.getInputProps('html')} />
              <Textarea label={t('templates.text')} autosize minRows={4} maxRows={10} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }} {...form.getInputProps('text')} />
              <Stack gap={4}>
                <Text size="sm" fw={500}>{t('templates.variables')}</Text>
                <Group gap={6}>{templateVariables(template.type).map((v) => <Code key={v}>{`{{ ${v} }}`}</Code>)}</Group>
              </Stack>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Stack gap="xs">
              <Group justify="space-between" align="flex-end" wrap="wrap">
                <Title order={2} size="h5">{t('templates.preview')}</Title>
                <Select
                  label={t('emailTemplates.previewWith')} size="xs" w={200} allowDeselect={false}
                  value={emptied ?? 'sample'} onChange={(v) => setEmptied(v === 'sample' || !v ? null : (v as OptionalTemplateVariable))}
                  data={[{ value: 'sample', label: t('emailTemplates.previewSample') }, ...OPTIONAL_TEMPLATE_VARIABLES.map((v) => ({ value: v, label: t('emailTemplates.previewWithout', { variable: v }) }))]}
                />
              </Group>
              <Text size="sm" fw={600} data-testid="template-preview-subject">{preview.subject}</Text>
              <EmailFrame title={t('templates.preview')} html={preview.html} testId="template-preview" />
            </Stack>
          </Grid.Col>
        </Grid>
        <Group justify="space-between" mt="lg">
          {confirmReset ? (
            <Group gap="xs">
              <Text size="sm">{t('templates.resetConfirm', { type: typeName(template.type) })}</Text>
              <Button color="red.9" size="xs" onClick={async () => {
                await app.resetEmailTemplate(template.type);
                notifications.show({ color: 'green', message: t('templates.resetDone') });
                onClose();
              }}>{t('templates.reset')}</Button>
              <Button size="xs" variant="default" onClick={() => setConfirmReset(false)}>{t('common.cancel')}</Button>
            </Group>
          ) : (
            <Button variant="subtle" color="red" disabled={template.isDefault} onClick={() => setConfirmReset(true)}>{t('templates.reset')}</Button>
          )}
          <Group>
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={saving} disabled={saving}>{t('common.save')}</Button>
          </Group>
        </Group>
      </form>
    </Modal>
  );
}
