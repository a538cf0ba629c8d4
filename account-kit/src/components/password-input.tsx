// A password field whose visibility toggle says what it does ("Show password" / "Hide password") and can be
// reached by keyboard.
import { useState } from 'react';
import { PasswordInput as MantinePasswordInput, type PasswordInputProps } from '@mantine/core';
import { useTranslate } from '../context';

export function PasswordInput(props: PasswordInputProps) {
  const t = useTranslate();
  const [visible, setVisible] = useState(false);
  return (
    <MantinePasswordInput
      {...props}
      visible={props.visible ?? visible}
      onVisibilityChange={(v) => { setVisible(v); props.onVisibilityChange?.(v); }}
      visibilityToggleFocusable
      visibilityToggleButtonProps={{ 'aria-label': (props.visible ?? visible) ? t('password.hide') : t('password.show'), ...props.visibilityToggleButtonProps }}
    />
  );
}
