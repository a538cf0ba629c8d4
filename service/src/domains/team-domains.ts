// Use cases of a team's email domains (issue 28): claim, list, verify by DNS TXT record, remove, and the periodic
// re-check that takes verification away from a domain whose record is gone. Verified domains decide which addresses
// SCIM may provision into the team (scim/users.ts).
import { randomBytes } from 'node:crypto';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import type { Services } from '../services';
import * as teams from '../repo/teams';
import * as domains from '../repo/team-domains';
import type { TeamDomainRow } from '../repo/team-domains';
import { challengeRecordName, normalizeEmailDomain } from '@gatehouse/shared/rules/email-domains';
import { checkChallengeRecord } from './dns-txt';
import * as ssoRepo from '../repo/sso';
import { refreshSsoRequiredDomains } from '../sso/required-domains';

interface TeamInput { projectId: string; teamId: string }

async function assertTeam(services: Services, { projectId, teamId }: TeamInput): Promise<void> {
  if (!(await teams.findTeam(services.db, projectId, teamId))) throw new KnownErrors.TeamNotFound(teamId);
}

export async function claimTeamDomain(services: Services, input: TeamInput & { domain: string }): Promise<TeamDomainRow> {
  const domain = normalizeEmailDomain(input.domain);
  if (!domain) throw new KnownErrors.InvalidEmailDomain(input.domain);
  await assertTeam(services, input);
  // 128 random bits: public once published, but not guessable before, so a claim cannot be prepared in advance.
  const challenge = randomBytes(16).toString('base64url');
  const row = await domains.insertClaim(services.db, { projectId: input.projectId, teamId: input.teamId, domain, challenge });
  if (!row) throw new KnownErrors.TeamDomainAlreadyClaimed(domain);
  return row;
}

export async function listTeamDomains(services: Services, input: TeamInput): Promise<TeamDomainRow[]> {
  await assertTeam(services, input);
  return domains.listForTeam(services.db, input.projectId, input.teamId);
}

export async function removeTeamDomain(services: Services, input: TeamInput & { domainId: string }): Promise<void> {
  if (!(await domains.remove(services.db, input.projectId, input.teamId, input.domainId))) throw new KnownErrors.TeamDomainNotFound(input.domainId);
  await refreshSsoRequiredDomains(services.db);
}

/** Looks the TXT record up now; DOMAIN_VERIFICATION_FAILED (with what the lookup saw) when it is not there. */
export async function verifyTeamDomain(services: Services, input: TeamInput & { domainId: string }): Promise<TeamDomainRow> {
  const row = await domains.find(services.db, input.projectId, input.teamId, input.domainId);
  if (!row) throw new KnownErrors.TeamDomainNotFound(input.domainId);
  if (await domains.verifiedElsewhere(services.db, row.projectId, row.teamId, row.domain)) throw new KnownErrors.DomainVerifiedByAnotherTeam(row.domain);
  const outcome = await checkDomain(services, row);
  if (outcome === 'taken') throw new KnownErrors.DomainVerifiedByAnotherTeam(row.domain);
  if (!outcome.verifiedAt) throw new KnownErrors.DomainVerificationFailed(row.domain, challengeRecordName(row.domain), outcome.lastCheckProblem ?? '');
  return outcome;
}

/** One check of one claim, recorded; 'taken' when another team verified the domain meanwhile. */
async function checkDomain(services: Services, row: TeamDomainRow): Promise<TeamDomainRow | 'taken'> {
  const check = await checkChallengeRecord(services.config.dnsServers, challengeRecordName(row.domain), row.challenge);
  const at = new Date();
  const updated = check.found
    ? await domains.recordCheck(services.db, row, true, null, at)
    : check.definitive
      ? await domains.recordCheck(services.db, row, false, check.problem, at)
      : await domains.recordInconclusiveCheck(services.db, row, check.problem, at);
  if (updated && row.verifiedAt && !updated.verifiedAt) await refreshSsoRequiredDomains(services.db);
  return updated ?? 'taken';
}

/**
 * The periodic re-check (background.ts): verified domains not checked for `domainRecheckHours` are looked up again;
 * a record that is definitely gone ends the verification, a failed lookup changes nothing. Returns how many were
 * checked and how many lost their verification.
 */
export async function recheckVerifiedDomains(services: Services, now = new Date(), batch = 100): Promise<{ checked: number; unverified: number }> {
  const before = new Date(now.getTime() - services.config.domainRecheckHours * 3600_000);
  const due = await domains.dueForRecheck(services.db, before, batch);
  let unverified = 0;
  for (const row of due) {
    const outcome = await checkDomain(services, row);
    if (outcome !== 'taken' && !outcome.verifiedAt) unverified++;
  }
  return { checked: due.length, unverified };
}

/**
 * Requires SSO for the domain's addresses (or stops requiring it). Only a verified domain may require it, and only a
 * team with an enabled SSO connection: otherwise its people could not sign in at all.
 */
export async function setDomainSsoRequired(services: Services, input: TeamInput & { domainId: string; required: boolean }): Promise<TeamDomainRow> {
  const row = await domains.find(services.db, input.projectId, input.teamId, input.domainId);
  if (!row) throw new KnownErrors.TeamDomainNotFound(input.domainId);
  if (input.required) {
    if (!row.verifiedAt) throw new KnownErrors.InvalidSsoConnection(`${row.domain} must be verified before SSO can be required for it.`);
    if (!(await ssoRepo.listConnections(services.db, input.projectId, input.teamId)).some((c) => c.enabled)) {
      throw new KnownErrors.InvalidSsoConnection('the team has no enabled SSO connection; add one before requiring SSO.');
    }
  }
  const updated = (await ssoRepo.setDomainSsoRequired(services.db, input.projectId, input.teamId, input.domainId, input.required))!;
  await refreshSsoRequiredDomains(services.db);
  return updated;
}
