// Contact channels (protocol-resources §9): data access. Writes for one user are serialised by locking the
// user's row (`lockUser`), so "already exists" checks and primary demotion are race-free per user; the
// used-for-auth uniqueness across users is enforced by the partial unique index, whose violation is mapped
// to the protocol's error.
import { and, asc, eq, ne } from 'drizzle-orm';
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import type { DB } from '../db';
import { schema } from '../db';
import { isUniqueViolation } from '../db/errors';
import { isUuid } from './users';

const c = schema.contactChannels;
export type ChannelRow = typeof c.$inferSelect;

/** Locks the user's row for the rest of the transaction; false when the user does not exist. */
export async function lockUser(tx: DB, projectId: string, userId: string): Promise<boolean> {
  if (!isUuid(userId)) return false;
  const u = schema.users;
  const rows = await tx.select({ id: u.id }).from(u).where(and(eq(u.projectId, projectId), eq(u.id, userId))).for('update');
  return rows.length > 0;
}

export async function list(db: DB, projectId: string, f: { userId?: string; channelId?: string }): Promise<ChannelRow[]> {
  const conditions = [eq(c.projectId, projectId)];
  if (f.userId) conditions.push(eq(c.userId, f.userId));
  if (f.channelId) conditions.push(eq(c.id, f.channelId));
  return db.select().from(c).where(and(...conditions)).orderBy(asc(c.createdAt), asc(c.id));
}

export async function find(db: DB, projectId: string, userId: string, channelId: string): Promise<ChannelRow | null> {
  if (!isUuid(userId) || !isUuid(channelId)) return null;
  const [row] = await db.select().from(c).where(and(eq(c.projectId, projectId), eq(c.userId, userId), eq(c.id, channelId))).limit(1);
  return row ?? null;
}

export async function findByValue(db: DB, projectId: string, userId: string, value: string): Promise<ChannelRow | null> {
  const [row] = await db.select().from(c)
    .where(and(eq(c.projectId, projectId), eq(c.userId, userId), eq(c.type, 'email'), eq(c.value, value))).limit(1);
  return row ?? null;
}

/** The user's primary email channel, if any. */
export async function findPrimaryEmail(db: DB, projectId: string, userId: string): Promise<ChannelRow | null> {
  const [row] = await db.select().from(c)
    .where(and(eq(c.projectId, projectId), eq(c.userId, userId), eq(c.type, 'email'), eq(c.isPrimary, true))).limit(1);
  return row ?? null;
}

/** Throws CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE when another user signs in with this value. */
export async function assertFreeForAuth(db: DB, projectId: string, userId: string, value: string, reportedValue: string | null) {
  const [row] = await db.select({ userId: c.userId }).from(c)
    .where(and(eq(c.projectId, projectId), eq(c.type, 'email'), eq(c.value, value), eq(c.usedForAuth, true), ne(c.userId, userId))).limit(1);
  if (row) throw new KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse('email', reportedValue);
}

function mapUniqueViolation(err: unknown, reportedValue: string | null): never {
  // Two users claiming the same sign-in email at the same moment: the index decides, the loser gets the error.
  if (isUniqueViolation(err, 'contact_channels_auth_idx')) throw new KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse('email', reportedValue);
  if (isUniqueViolation(err, 'contact_channels_user_value_idx')) throw new StatusError(400, 'Contact channel already exists');
  throw err;
}

/** Clears the primary flag of the user's other email channels. */
export async function demotePrimary(tx: DB, projectId: string, userId: string, exceptId?: string) {
  const conditions = [eq(c.projectId, projectId), eq(c.userId, userId), eq(c.type, 'email'), eq(c.isPrimary, true)];
  if (exceptId) conditions.push(ne(c.id, exceptId));
  await tx.update(c).set({ isPrimary: false }).where(and(...conditions));
}

export async function insert(tx: DB, v: { projectId: string; userId: string; value: string; usedForAuth: boolean; isPrimary: boolean; isVerified: boolean; authRequiresVerification?: boolean }): Promise<ChannelRow> {
  try {
    const [row] = await tx.insert(c).values({ ...v, type: 'email' }).returning();
    return row!;
  } catch (err) {
    mapUniqueViolation(err, v.value);
  }
}

export async function update(tx: DB, id: string, set: Partial<Pick<ChannelRow, 'value' | 'usedForAuth' | 'isPrimary' | 'isVerified' | 'authRequiresVerification'>>): Promise<ChannelRow> {
  try {
    const [row] = Object.keys(set).length
      ? await tx.update(c).set(set).where(eq(c.id, id)).returning()
      : await tx.select().from(c).where(eq(c.id, id));
    return row!;
  } catch (err) {
    mapUniqueViolation(err, null);
  }
}

/** Deletes the channel; returns what it was (null when there is none). */
export async function remove(tx: DB, projectId: string, userId: string, id: string): Promise<{ value: string; usedForAuth: boolean } | null> {
  if (!isUuid(userId) || !isUuid(id)) return null;
  const [row] = await tx.delete(c).where(and(eq(c.projectId, projectId), eq(c.userId, userId), eq(c.id, id)))
    .returning({ value: c.value, usedForAuth: c.usedForAuth });
  return row ?? null;
}

/** Marks the user's email channel with this value verified; false when it no longer exists. */
export async function markVerified(db: DB, projectId: string, userId: string, value: string): Promise<boolean> {
  if (!isUuid(userId)) return false;
  const rows = await db.update(c).set({ isVerified: true })
    .where(and(eq(c.projectId, projectId), eq(c.userId, userId), eq(c.type, 'email'), eq(c.value, value)))
    .returning({ id: c.id });
  return rows.length > 0;
}

/** The user's verified email addresses, each once (security notices go to them). */
export async function verifiedAddresses(db: DB, projectId: string, userId: string): Promise<string[]> {
  const rows = await db.select({ value: c.value }).from(c)
    .where(and(eq(c.projectId, projectId), eq(c.userId, userId), eq(c.type, 'email'), eq(c.isVerified, true)));
  return [...new Set(rows.map((r) => r.value))];
}

/**
 * Sets the user's primary email (the server's `primary_email` fields): updates the primary channel, or promotes an
 * existing channel with the same value, or inserts one. USER_EMAIL_ALREADY_EXISTS when another user signs in with it.
 */
export async function writePrimaryEmail(tx: DB, projectId: string, userId: string, primary: ChannelRow | null, v: { value: string; usedForAuth: boolean; isVerified: boolean }): Promise<void> {
  try {
    if (primary) {
      await tx.update(c).set(v).where(eq(c.id, primary.id));
    } else {
      // An existing non-primary channel with the same value becomes the primary one.
      const existing = await findByValue(tx, projectId, userId, v.value);
      if (existing) await tx.update(c).set({ isPrimary: true, usedForAuth: v.usedForAuth, isVerified: v.isVerified }).where(eq(c.id, existing.id));
      else await tx.insert(c).values({ projectId, userId, type: 'email', isPrimary: true, ...v });
    }
  } catch (err) {
    if (isUniqueViolation(err, 'contact_channels_auth_idx')) throw new KnownErrors.UserEmailAlreadyExists(v.value);
    throw err;
  }
}
