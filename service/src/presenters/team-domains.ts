// A team's email domain as the server and admin API show it (shared/src/schemas/team-enterprise.ts).
import type { TeamDomain } from '@gatehouse/shared/schemas/team-enterprise';
import { CHALLENGE_PREFIX, challengeRecordName } from '@gatehouse/shared/rules/email-domains';
import type { TeamDomainRow } from '../repo/team-domains';

export function teamDomainView(row: TeamDomainRow): TeamDomain {
  return {
    id: row.id,
    team_id: row.teamId,
    domain: row.domain,
    status: row.verifiedAt ? 'verified' : 'pending',
    txt_record: { name: challengeRecordName(row.domain), value: CHALLENGE_PREFIX + row.challenge },
    verified_at_millis: row.verifiedAt?.getTime() ?? null,
    last_checked_at_millis: row.lastCheckedAt?.getTime() ?? null,
    last_check_problem: row.lastCheckProblem,
    sso_required: row.ssoRequired,
    created_at_millis: row.createdAt.getTime(),
  };
}
