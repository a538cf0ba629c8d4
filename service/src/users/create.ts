// The one way a user comes into being (password, OTP and OAuth sign-up, anonymous sign-up, POST /users): the rows
// (repo/user-writes.ts), then the events in the same transaction (`team.created` for a personal team, then
// `user.created`), so they exist exactly when the user does. A new sign-in method creates its users with `createUser`
// (or `createUserIn` inside a transaction of its own, as the OAuth callback does).
import type { DB } from '../db';
import type { Project } from '../repo/projects';
import * as users from '../repo/users';
import type { ChannelRow } from '../repo/contact-channels';
import * as sessions from '../repo/sessions';
import type { InsertedSession, NewSession } from '../repo/sessions';
import { insertPlainUser, insertUser, isPlainNewUser, plainUserRow, type NewUser } from '../repo/user-writes';
import type { ServerUserCreate } from '@gatehouse/shared/schemas/users';
import { payloadOf, type Events } from '../events';
import type { Services } from '../services';
import { serverTeamView } from '../presenters/teams';
import { serverUserView } from '../presenters/users';
import { newUserFromCreate } from './update';

export interface CreatedUser {
  user: users.UserRow;
  /** The primary email channel (null without a primary email). */
  channel: ChannelRow | null;
  /** The session written with the user (`NewUserInput.session`), else null. */
  session: InsertedSession | null;
}

export interface NewUserInput {
  project: Project;
  user: NewUser;
  /** The caller has just checked that no one signs in with the primary email, so it is not read again. */
  emailCheckedFree?: boolean;
  /** The user's id, chosen by the caller (a sign-up makes its session for it first); a new one otherwise. */
  id?: string;
  /** A session for the new user (repo/sessions.ts `newSession`), written with it: a sign-up's first. */
  session?: NewSession;
}

/** Creates the user and emits its events, atomically: one statement for a plain new user, else a transaction. */
export async function createUser(services: Pick<Services, 'db' | 'events'>, input: NewUserInput): Promise<CreatedUser> {
  if (isPlainNewUser(input.project, input.user)) return createPlainUser(services.db, services.events, input);
  return services.db.transaction((tx) => createUserIn(tx, services.events, input));
}

/** `createUser` inside the caller's transaction `tx` (a flow that writes more in the same transaction). */
export async function createUserIn(tx: DB, events: Events, input: NewUserInput): Promise<CreatedUser> {
  if (isPlainNewUser(input.project, input.user)) return createPlainUser(tx, events, input);
  const { project, user: u, emailCheckedFree } = input;
  assertSessionIsTheUsers(input, input.id);
  const { id, channel, personalTeam } = await insertUser(tx, project, u, { id: input.id, emailCheckedFree });
  if (personalTeam) await events.emit(tx, project.id, 'team.created', serverTeamView(personalTeam));
  // Read back once, in the shape the event and the callers need (personal team, auth methods).
  const user = (await users.load(tx, project.id, id))!;
  await events.emit(tx, project.id, 'user.created', serverUserView(user));
  const session = input.session ? await sessions.insert(tx, input.session) : null;
  return { user, channel, session };
}

/**
 * The user, its channel, its `user.created` deliveries and the session asked for, in one statement (issue 31: a
 * sign-up's round trips and commits).
 */
async function createPlainUser(db: DB, events: Events, { project, user: u, emailCheckedFree, id = crypto.randomUUID(), session }: NewUserInput): Promise<CreatedUser> {
  assertSessionIsTheUsers({ session }, id);
  const createdAt = new Date();
  const payload = payloadOf('user.created', serverUserView(plainUserRow(project, u, { id, createdAt })));
  const written = await insertPlainUser(db, project, u, { id, createdAt, event: payload, emailCheckedFree, session });
  events.queued(written.queuedDeliveries);
  return { user: written.user, channel: written.channel, session: written.session };
}

/** A session given to be written with the user must be made for its id (`sessionToOpen` with the id given). */
function assertSessionIsTheUsers(input: Pick<NewUserInput, 'session'>, id: string | undefined): void {
  if (input.session && input.session.values.userId !== id) throw new Error('the session given is for another user');
}

/** POST /users: a server's or admin's new user, its fields checked and translated first (users/update.ts). */
export async function createUserFromFields(services: Services, input: { project: Project; fields: ServerUserCreate }): Promise<users.UserRow> {
  const user = await newUserFromCreate(services, input.project, input.fields);
  return (await createUser(services, { project: input.project, user })).user;
}
