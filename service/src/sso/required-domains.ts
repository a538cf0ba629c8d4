// Which addresses must sign in through SSO (a verified domain with "require SSO" and an enabled connection), kept in
// memory and read again every few seconds in the background, so that password, code and OAuth sign-ins check it
// without a database read on their path. A change made on this instance is seen at once (`refresh`); one made on
// another instance within the refresh period.
import { emailDomainOf } from '@gatehouse/shared/rules/email-domains';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { DB } from '../db';
import * as sso from '../repo/sso';

export const SSO_REQUIRED_REFRESH_MS = 5_000;

// One set per process: a process runs one service (its sign-ins in transactions see the same set).
let required = new Set<string>();
const key = (projectId: string, domain: string) => `${projectId}\u0000${domain}`;

/** Reads the set again (at start, on the background tick, after a change on this instance). */
export async function refreshSsoRequiredDomains(db: DB): Promise<void> {
  const rows = await sso.ssoRequiredDomains(db);
  required = new Set(rows.map((r) => key(r.projectId, r.domain)));
}

/** SSO_REQUIRED when the address's domain requires SSO in this project. */
export function assertSsoNotRequired(projectId: string, email: string | null | undefined): void {
  if (required.size === 0 || !email) return;
  const domain = emailDomainOf(email);
  if (domain && required.has(key(projectId, domain))) throw new KnownErrors.SsoRequired(email);
}
