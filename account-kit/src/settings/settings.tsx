// Settings (client-library §7.6): delete the account (when the project lets clients do it) inside a
// "Danger zone", download the account's data (issue 30, ASVS 8.3.2), and sign out.
import { Accordion, Button, Stack } from '@mantine/core';
import type { CurrentUser } from '@gatehouse/shared/client';
import { useGatehouseApp, useTranslate } from '../context';
import { useProject } from '../hooks/use-project';
import { InlineConfirm } from '../widgets/inline-confirm';
import { SettingsSection } from '../widgets/settings-section';
import { leaveWith } from './leaving';
import { exportFileName } from '../lib/only-sign-in-method';
import { useSettingsAction } from './settings-actions';

export function SettingsItem({ user }: { user: CurrentUser }) {
  const t = useTranslate();
  const app = useGatehouseApp();
  const project = useProject();
  const run = useSettingsAction();
  return (
    <Stack gap="lg">
      {project.config.clientUserDeletionEnabled && (
        <SettingsSection id="delete-account" title={t('settings.delete.title')} description={t('settings.delete.description')}>
          <Accordion variant="separated" chevronPosition="right">
            <Accordion.Item value="danger">
              <Accordion.Control>{t('settings.delete.dangerZone')}</Accordion.Control>
              <Accordion.Panel>
                <InlineConfirm
                  trigger={(open) => <Button color="red" size="sm" onClick={open}>{t('settings.delete.button')}</Button>}
                  text={t('settings.delete.confirm')}
                  confirmLabel={t('settings.delete.submit')}
                  onConfirm={async () => {
                    await run(() => leaveWith(async () => {
                      await user.delete();
                      await app.redirectToHome({ replace: true });
                    }));
                  }}
                />
              </Accordion.Panel>
            </Accordion.Item>
          </Accordion>
        </SettingsSection>
      )}
      <SettingsSection
        id="export-data"
        title={t('settings.export.title')}
        description={t('settings.export.description')}
        actions={<Button variant="default" size="sm" onClick={() => void run(async () => saveJson(exportFileName(new Date()), await user.exportData()))}>{t('settings.export.button')}</Button>}
      />
      <SettingsSection
        id="sign-out"
        title={t('settings.signOut.title')}
        description={t('settings.signOut.description')}
        actions={<Button variant="default" size="sm" onClick={() => void run(() => leaveWith(() => user.signOut()))}>{t('settings.signOut.button')}</Button>}
      />
    </Stack>
  );
}

/** Hands the data to the browser as a file download (ASVS 8.3.2). */
function saveJson(fileName: string, data: unknown) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has its own copy once started.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
