// How a settings action reports failure: the service's RECENT_SIGN_IN_REQUIRED opens the "sign in again"
// dialog (which brings the person back to this section); any other error is a notification with the text of
// client-library §7.9 (where the original used `alert`).
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { CurrentUser } from '@gatehouse/shared/client';
import { useGatehouseApp, useTranslate } from '../context';
import type { Translate } from '../messages';
import { leaveWith } from './leaving';
import { errorNotice, isRecentSignInRequired, reauthenticationUrl } from '../lib/settings-errors';
import { ErrorMessage } from '../components/error-message';

interface SettingsActionsValue {
  requestReauthentication(): void;
}
const SettingsActionsContext = createContext<SettingsActionsValue | null>(null);

/** Shows a failure as a red notification: the catalogue's text for the error (§7.9's where it is unhandled). */
export function notifyError(t: Translate, err: unknown) {
  if (errorNotice(err, false).code === null) console.error(err);
  notifications.show({ color: 'red', title: t('settings.error.title'), message: <ErrorMessage error={err} />, autoClose: 8000 });
}

export function notifyFailure(t: Translate, message: string) {
  notifications.show({ color: 'red', title: t('settings.error.title'), message, autoClose: 8000 });
}

export function notifySuccess(message: string) {
  notifications.show({ color: 'teal', message, autoClose: 4000 });
}

/**
 * `run(action)`: runs it; resolves true on success, false after reporting a failure (never throws). An error
 * in `handled` (returning true) is left to the caller, e.g. to show it next to a field.
 */
export function useSettingsAction() {
  const t = useTranslate();
  const ctx = useContext(SettingsActionsContext);
  return async (action: () => Promise<unknown>, handled?: (err: unknown) => boolean): Promise<boolean> => {
    try {
      await action();
      return true;
    } catch (err) {
      if (isRecentSignInRequired(err) && ctx) ctx.requestReauthentication();
      else if (!handled?.(err)) notifyError(t, err);
      return false;
    }
  };
}

export function SettingsActionsProvider({ user, sectionId, children }: { user: CurrentUser; sectionId: string; children: ReactNode }) {
  const app = useGatehouseApp();
  const t = useTranslate();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const value = useMemo<SettingsActionsValue>(() => ({ requestReauthentication: () => setOpen(true) }), []);
  const signInAgain = async () => {
    setBusy(true);
    // The old session is ended (the sign-in page would otherwise say "already signed in"); after signing in the
    // person comes back to this section through after_auth_return_to.
    const target = reauthenticationUrl(app.urls.signIn, window.location, sectionId);
    await leaveWith(() => user.signOut({ redirectUrl: target })).catch(() => window.location.assign(target));
  };
  return (
    <SettingsActionsContext.Provider value={value}>
      {children}
      <Modal opened={open} onClose={() => setOpen(false)} title={t('settings.reauth.title')} centered>
        <Stack>
          <Text size="sm">{t('settings.reauth.text')}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setOpen(false)} disabled={busy}>{t('settings.cancel')}</Button>
            <Button onClick={() => void signInAgain()} loading={busy} data-autofocus>{t('settings.reauth.signIn')}</Button>
          </Group>
        </Stack>
      </Modal>
    </SettingsActionsContext.Provider>
  );
}
