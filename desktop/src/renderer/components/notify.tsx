// Notifications of the console's actions: success in green with the action's text, failure in red with the error as
// components/error-message.tsx shows it (the catalogue's text for its code, and the code).
import { notifications } from '@mantine/notifications';
import { ErrorMessage } from './error-message';

export function notifyError(error: unknown): void {
  notifications.show({ color: 'red', message: <ErrorMessage error={error} /> });
}

/** Runs an action and says how it went; resolves true when it succeeded. */
export async function runAction(action: () => Promise<unknown>, done: string): Promise<boolean> {
  try {
    await action();
    notifications.show({ color: 'green', message: done });
    return true;
  } catch (error) {
    notifyError(error);
    return false;
  }
}
