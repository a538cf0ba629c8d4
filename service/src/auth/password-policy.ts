// The rules every password operation checks first: the project allows password sign-in, and a new password is
// acceptable (shared/ rules, then not a common password).
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { getPasswordError } from '@gatehouse/shared/rules/password';
import type { Project } from '../repo/projects';
import { assertNotCommonPassword } from './common-passwords';

export function assertPasswordAuthEnabled(project: Project): void {
  if (!project.config.credential_enabled) throw new KnownErrors.PasswordAuthenticationNotEnabled();
}

/** The project's minimum length (its security settings) applies to every password a user chooses. */
export async function assertPasswordAcceptable(project: Project, password: string): Promise<void> {
  const error = getPasswordError(password, { minLength: project.security.password_min_length });
  if (error) throw error;
  await assertNotCommonPassword(password);
}
