// The one way a user comes into being (password, OTP and OAuth sign-up, anonymous sign-up, POST /users): the rows
// (repo/user-writes.ts), then the events in the same transaction (`team.created` for a personal team, then
// `user.created`), so they exist exactly when the user does.
import type { DB } from '../db';
import type { Project } from '../repo/projects';
import * as users from '../repo/users';
import type { ChannelRow } from '../repo/contact-channels';
import { insertUser, type NewUser } from '../repo/user-writes';
import type { Events } from '../events';
import { serverTeamView } from '../presenters/teams';
import { serverUserView } from '../presenters/users';

export interface CreatedUser {
  user: users.UserRow;
  /** The primary email channel (null without a primary email). */
  channel: ChannelRow | null;
}

/**
 * Creates the user and emits its events. Call inside a transaction. `emailCheckedFree`: the caller has just
 * checked that no one signs in with the primary email, so it is not read again.
 */
export async function createUser(events: Events, tx: DB, project: Project, u: NewUser, o: { emailCheckedFree?: boolean } = {}): Promise<CreatedUser> {
  const { id, channel, personalTeam } = await insertUser(tx, project, u, o);
  if (personalTeam) await events.emit(tx, project.id, 'team.created', serverTeamView(personalTeam));
  // Read back once, in the shape the event and the callers need (personal team, auth methods).
  const user = (await users.load(tx, project.id, id))!;
  await events.emit(tx, project.id, 'user.created', serverUserView(user));
  return { user, channel };
}
