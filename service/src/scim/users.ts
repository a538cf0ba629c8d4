// SCIM Users of a team (RFC 7644 §3.3-3.6, issue 28). A provisioned user is a Gatehouse user of the project and a
// member of the team while active. The identity provider may provision only addresses at the team's verified
// domains: it links the project's existing user of that address or creates one (its email verified, since the team
// proved it controls the domain), so a SCIM token can never reach an account outside its customer's domains.
// Deactivating (`active: false`) or deleting ends the user's sessions at once and removes the membership; the
// Gatehouse user stays (it may belong to other teams), and a deactivated one stays readable for the provider.
import { isValidEmail } from '@gatehouse/shared/rules/email';
import { emailDomainOf } from '@gatehouse/shared/rules/email-domains';
import type { DB } from '../db';
import type { Services } from '../services';
import * as users from '../repo/users';
import * as scim from '../repo/scim';
import * as domains from '../repo/team-domains';
import * as sessions from '../repo/sessions';
import { lockUser } from '../repo/contact-channels';
import { isMember, removeMember } from '../repo/team-members';
import { createUserIn } from '../users/create';
import { applyUserUpdate } from '../users/update';
import { joinTeam } from '../teams/membership';
import { serverUserView } from '../presenters/users';
import { syncScimGrants } from './group-permissions';
import { scimInvalidValue, scimNotFound, scimUniqueness } from './scim-error';
import { applyUserPatch, effectiveDisplayName, parseUserResource, type ScimName, type ScimUserFields } from './user-resource';
import { parseUserFilter } from './filter';
import type { ScimCaller } from './tokens';
import { logProvisioning } from './provisioning-log';

export const SCIM_MAX_RESULTS = 1000;

/** The fields of a stored record, as a PATCH starts from. */
export function fieldsOf(record: scim.ScimUserRecord): ScimUserFields {
  return {
    userName: record.userName, externalId: record.externalId, active: record.active,
    name: (record.name as ScimName | null) ?? null, displayName: record.displayName, email: record.email,
  };
}

async function assertProvisionableEmail(db: DB, caller: ScimCaller, email: string | null): Promise<string> {
  if (!email) throw scimInvalidValue('The user needs an email address (in emails, or as a userName that is an address).');
  const address = email.trim().toLowerCase();
  if (!isValidEmail(address)) throw scimInvalidValue(`${email} is not a valid email address.`);
  const domain = emailDomainOf(address);
  if (!domain || !(await domains.isVerifiedFor(db, caller.project.id, caller.teamId, domain))) {
    throw scimInvalidValue(`${address} is not at a verified domain of this team. Verify the domain in Gatehouse first (a DNS TXT record), then provision its users.`);
  }
  return address;
}

async function assertNoClash(db: DB, caller: ScimCaller, fields: ScimUserFields, exceptUserId?: string) {
  const clash = await scim.findClash(db, caller.project.id, caller.teamId, fields, exceptUserId);
  if (clash) throw scimUniqueness(`Another user of this team has this ${clash}.`);
}

/** Membership, grants and sessions after `active` became `active` (in `tx`); true when sessions were ended. */
async function applyActive(tx: DB, services: Services, caller: ScimCaller, userId: string, active: boolean): Promise<boolean> {
  const { project, teamId } = caller;
  if (active) {
    if (!(await isMember(tx, project.id, teamId, userId))) await joinTeam(services.events, tx, project, teamId, userId);
    await syncScimGrants(tx, services.events, project.id, teamId, userId);
    return false;
  }
  if (await removeMember(tx, project.id, teamId, userId)) {
    await services.events.emit(tx, project.id, 'team_membership.deleted', { team_id: teamId, user_id: userId });
  }
  await sessions.revokeAllForUser(tx, project.id, userId);
  return true;
}

/** The Gatehouse user's name and email as the identity provider has them now (with `user.updated`). */
async function applyProfile(tx: DB, services: Services, caller: ScimCaller, userId: string, before: ScimUserFields | null, next: ScimUserFields, email: string) {
  const displayName = effectiveDisplayName(next);
  const changes: { display_name?: string | null; primary_email?: string; primary_email_verified?: boolean; primary_email_auth_enabled?: boolean } = {};
  if (!before || effectiveDisplayName(before) !== displayName) changes.display_name = displayName;
  if (!before || before.email?.toLowerCase() !== email) Object.assign(changes, { primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true });
  if (Object.keys(changes).length === 0) return;
  await lockUser(tx, caller.project.id, userId);
  await applyUserUpdate(tx, services, caller.project, userId, changes, false);
  const row = await users.load(tx, caller.project.id, userId);
  await services.events.emit(tx, caller.project.id, 'user.updated', row && serverUserView(row));
}

/** POST /Users. */
export async function provisionScimUser(services: Services, caller: ScimCaller, body: unknown): Promise<scim.ScimUserRecord> {
  const fields = parseUserResource(body);
  const email = await assertProvisionableEmail(services.db, caller, fields.email);
  await assertNoClash(services.db, caller, fields);
  const { project, teamId } = caller;
  const userId = await services.db.transaction(async (tx) => {
    const existing = await users.findByAuthEmail(tx, project.id, email);
    let id: string;
    if (existing) {
      id = existing.userId;
      if (await scim.findUser(tx, project.id, teamId, id)) throw scimUniqueness(`${email} is already provisioned in this team.`);
    } else {
      const displayName = effectiveDisplayName(fields);
      id = (await createUserIn(tx, services.events, {
        project,
        user: { displayName, primaryEmail: email, primaryEmailVerified: true, primaryEmailAuthEnabled: true },
      })).user.id;
    }
    if (!(await scim.insertUser(tx, project.id, teamId, id, { userName: fields.userName, externalId: fields.externalId, active: fields.active, name: fields.name }))) {
      throw scimUniqueness('A concurrent request provisioned this user first.');
    }
    if (existing) await applyProfile(tx, services, caller, id, null, { ...fields, email }, email);
    if (fields.active) await applyActive(tx, services, caller, id, true);
    return id;
  });
  logProvisioning(services, caller, 'scim.user_provisioned', { userId, details: { user_name: fields.userName } });
  return (await scim.findUser(services.db, project.id, teamId, userId))!;
}

export async function getScimUser(services: Services, caller: ScimCaller, userId: string): Promise<scim.ScimUserRecord> {
  const record = await scim.findUser(services.db, caller.project.id, caller.teamId, userId);
  if (!record) throw scimNotFound('User', userId);
  return record;
}

export interface ScimPage { startIndex: number; count: number }

/** `startIndex` (1-based) and `count` as RFC 7644 §3.4.2.4 reads them: out-of-range values are clamped. */
export function scimPage(startIndex: string | null, count: string | null): ScimPage {
  const start = Number.parseInt(startIndex ?? '1', 10);
  const n = Number.parseInt(count ?? '100', 10);
  return { startIndex: Number.isFinite(start) && start >= 1 ? start : 1, count: Number.isFinite(n) ? Math.min(Math.max(n, 0), SCIM_MAX_RESULTS) : 100 };
}

export async function listScimUsers(services: Services, caller: ScimCaller, input: { filter: string | null; page: ScimPage }) {
  const conditions = input.filter ? parseUserFilter(input.filter) : [];
  const { total, rows } = await scim.listUsers(services.db, caller.project.id, caller.teamId, conditions as scim.UserCondition[], {
    offset: input.page.startIndex - 1, limit: input.page.count,
  });
  return { total, rows, startIndex: input.page.startIndex };
}

/** PUT (the whole resource) and PATCH (operations) end here: the change, in one transaction. */
async function changeScimUser(services: Services, caller: ScimCaller, userId: string, next: (current: ScimUserFields) => ScimUserFields): Promise<scim.ScimUserRecord> {
  const { project, teamId } = caller;
  let change: 'scim.user_updated' | 'scim.user_deactivated' | 'scim.user_reactivated' = 'scim.user_updated';
  const endedSessions = await services.db.transaction(async (tx) => {
    const record = await scim.findUser(tx, project.id, teamId, userId, 'update');
    if (!record) throw scimNotFound('User', userId);
    const before = fieldsOf(record);
    const after = next(before);
    if (after.userName.toLowerCase() !== before.userName.toLowerCase() || (after.externalId && after.externalId !== before.externalId)) {
      await assertNoClash(tx, caller, after, userId);
    }
    const email = after.email?.toLowerCase() === before.email?.toLowerCase() && before.email
      ? before.email.toLowerCase()
      : await assertProvisionableEmail(tx, caller, after.email);
    await scim.updateUser(tx, project.id, teamId, userId, { userName: after.userName, externalId: after.externalId, active: after.active, name: after.name });
    await applyProfile(tx, services, caller, userId, before, after, email);
    if (after.active !== before.active) change = after.active ? 'scim.user_reactivated' : 'scim.user_deactivated';
    return after.active !== before.active ? applyActive(tx, services, caller, userId, after.active) : false;
  });
  if (endedSessions) await services.revokedSessions.sync();
  logProvisioning(services, caller, change, { userId });
  return (await scim.findUser(services.db, project.id, teamId, userId))!;
}

export function replaceScimUser(services: Services, caller: ScimCaller, userId: string, body: unknown) {
  const fields = parseUserResource(body);
  return changeScimUser(services, caller, userId, () => fields);
}

export function patchScimUser(services: Services, caller: ScimCaller, userId: string, body: unknown) {
  return changeScimUser(services, caller, userId, (current) => applyUserPatch(current, body));
}

/** DELETE /Users/{id}: deprovisioned from the team (membership, sessions); the Gatehouse user stays. */
export async function deleteScimUser(services: Services, caller: ScimCaller, userId: string): Promise<void> {
  const { project, teamId } = caller;
  await services.db.transaction(async (tx) => {
    if (!(await scim.deleteUser(tx, project.id, teamId, userId))) throw scimNotFound('User', userId);
    await applyActive(tx, services, caller, userId, false);
  });
  await services.revokedSessions.sync();
  logProvisioning(services, caller, 'scim.user_deleted', { userId });
}

