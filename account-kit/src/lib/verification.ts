// Which card a code-checking page shows for a verification error (client-library §6.5). Pure.
import { KnownError } from '@gatehouse/shared/known-errors/base';

export type CodeProblem = 'invalid' | 'expired' | 'used' | 'unknown';

export function codeProblem(err: unknown): CodeProblem {
  if (!(err instanceof KnownError)) return 'unknown';
  switch (err.errorCode) {
    case 'VERIFICATION_CODE_NOT_FOUND':
    case 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED':
      return 'invalid';
    case 'VERIFICATION_CODE_EXPIRED':
      return 'expired';
    case 'VERIFICATION_CODE_ALREADY_USED':
      return 'used';
    default:
      return 'unknown';
  }
}

/** The `code` query parameter of the current page, or null. */
export function codeFromSearch(search: string): string | null {
  const code = new URLSearchParams(search).get('code');
  return code ? code : null;
}
