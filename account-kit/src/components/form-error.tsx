import { Alert } from '@mantine/core';

/** An error of a whole form (not of one field), announced to screen readers. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return <Alert color="red" variant="light" role="alert" p="xs">{message}</Alert>;
}
