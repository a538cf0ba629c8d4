// A new password's field with a strength meter under it (ASVS 2.1.8). The meter follows what is typed, whether the
// form is controlled (`value`) or not (`defaultValue` plus onChange); the service still decides what it accepts.
import { useState } from 'react';
import { Progress, Stack, Text, type PasswordInputProps } from '@mantine/core';
import { useTranslate } from '../context';
import { usePasswordStrength } from '../hooks/use-password-strength';
import { strengthLevel } from '../lib/password-strength';
import { PasswordInput } from './password-input';

export function NewPasswordInput({ userInputs, ...props }: PasswordInputProps & { userInputs?: string[] }) {
  const t = useTranslate();
  const [typed, setTyped] = useState(typeof props.defaultValue === 'string' ? props.defaultValue : '');
  const password = typeof props.value === 'string' ? props.value : typed;
  const score = usePasswordStrength(password, userInputs);
  const level = score === null ? null : strengthLevel(score);
  return (
    <Stack gap={4}>
      <PasswordInput {...props} onChange={(e) => { setTyped(e.currentTarget.value); props.onChange?.(e); }} />
      {level && (
        <>
          <Progress value={level.value} color={level.color} size="sm" aria-label={t('password.strength.label')} data-testid="password-strength" />
          <Text size="xs" c="dimmed" aria-live="polite">{t('password.strength.label')}: {t(level.key)}</Text>
        </>
      )}
    </Stack>
  );
}
