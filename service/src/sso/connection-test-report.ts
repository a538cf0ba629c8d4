// What a test of an SSO connection reports (the console's "Test sign-in", issue 28): what the IdP sent (after every
// check of its answer), and what a real sign-in would do with it (sign in an existing account, create one, or refuse
// the address). Nothing is written.
import { emailDomainOf } from '@gatehouse/shared/rules/email-domains';
import type { Services } from '../services';
import * as sso from '../repo/sso';
import * as users from '../repo/users';
import type { SsoIdentity } from './identity';

export interface ConnectionTestReport {
  connectionId: string;
  /** The IdP's answer passed every check and a real sign-in would go through. */
  ok: boolean;
  /** Why it would not (the refusal's text). */
  problem: string | null;
  identity: SsoIdentity | null;
  /** What a real sign-in would do. */
  account: 'existing' | 'new' | null;
}

export async function testReport(services: Services, projectId: string, connection: sso.SsoConnectionRow, identity: SsoIdentity): Promise<ConnectionTestReport> {
  const domain = identity.email ? emailDomainOf(identity.email) : null;
  const owner = domain ? await sso.domainOwner(services.db, projectId, domain) : null;
  if (!identity.email || owner?.teamId !== connection.teamId) {
    return { connectionId: connection.id, ok: false, problem: `${identity.email ?? 'The account (it has no email address)'} is not at a verified domain of this organization.`, identity, account: null };
  }
  const known = (await sso.findIdentity(services.db, connection.id, identity.subject)) ?? (await users.findByAuthEmail(services.db, projectId, identity.email))?.userId;
  return { connectionId: connection.id, ok: true, problem: null, identity, account: known ? 'existing' : 'new' };
}

