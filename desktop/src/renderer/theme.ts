// The account kit's theme, plus defaults the console needs: every notification's and dialog's close button has a name.
import { Modal, Notification, mergeThemeOverrides } from '@mantine/core';
import { gatehouseTheme } from '@gatehouse/account-kit';
import { t } from './messages';

export const consoleTheme = mergeThemeOverrides(gatehouseTheme, {
  components: {
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': t('common.close') } } }),
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': t('common.close') } } }),
  },
});
