// An error as the console shows it everywhere (notifications, field errors, alerts, error states): the catalogue's
// text for the known error's code, and the code in small print (lib/error-text.ts chooses both).
import { Text } from '@mantine/core';
import { errorText } from '../lib/error-text';
import { t } from '../messages';

export function ErrorMessage({ error }: { error: unknown }) {
  const { key, values, code } = errorText(error);
  return (
    <>
      {t(key, values)}
      {code && (
        <Text component="span" size="xs" c="dimmed" ff="monospace" ml={6} data-testid="error-code">
          {code}
        </Text>
      )}
    </>
  );
}
