// A user's own data, gathered for GET /users/me/export (ASVS 8.3.2): each part read as the user's own requests read
// it (the same use cases), plus the connected OAuth accounts without their tokens.
import type { Services } from '../services';
import type { Caller } from '../auth/caller';
import * as accounts from '../repo/oauth-accounts';
import type { UserRow } from '../repo/users';
import { listContactChannels } from '../contact-channels/reads';
import { listSessions } from '../auth/session-management';
import { listTeams } from '../teams/team-changes';

export async function exportUserData(services: Services, input: { caller: Caller; user: UserRow }) {
  const { caller, user } = input;
  const [channels, sessions, teams, oauth] = await Promise.all([
    listContactChannels(services, { caller, userId: user.id }),
    listSessions(services, { caller, userId: user.id }),
    listTeams(services, { caller, userId: user.id }),
    accounts.listAllForUser(services.db, caller.project.id, user.id),
  ]);
  return { user, channels, sessions, teams, oauth, exportedAt: new Date() };
}
