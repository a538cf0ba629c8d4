// An error as the kit shows it (notifications, field errors, load failures): the catalogue's text for the known
// error's code, with the code in small print (lib/settings-errors.ts chooses both).
import { Text } from '@mantine/core';
import { useTranslate } from '../context';
import { errorNotice } from '../lib/settings-errors';

export function ErrorMessage({ error }: { error: unknown }) {
  const t = useTranslate();
  const { key, values, code } = errorNotice(error, import.meta.env?.DEV ?? false);
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
