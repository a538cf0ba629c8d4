// CLI login attempts (protocol-auth §3.7). Both codes are stored as sha256 hashes; the refresh token handed over
// by the browser is kept encrypted only until the CLI's first successful poll, then erased.
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DB } from '../db';
import { rowsOf, schema } from '../db';
import { hashSecret } from '../db/secret-hash';

const c = schema.cliAuthAttempts;

export async function create(db: DB, p: { projectId: string; pollingCode: string; loginCode: string; expiresAt: Date }) {
  await db.insert(c).values({
    projectId: p.projectId, pollingCodeHash: hashSecret(p.pollingCode), loginCodeHash: hashSecret(p.loginCode), expiresAt: p.expiresAt,
  });
}

export async function findByPollingCode(db: DB, projectId: string, pollingCode: string) {
  const [row] = await db.select({
    id: c.id, expiresAt: c.expiresAt, usedAt: c.usedAt, hasToken: sql<boolean>`${c.refreshTokenEncrypted} is not null`,
  }).from(c).where(and(eq(c.projectId, projectId), eq(c.pollingCodeHash, hashSecret(pollingCode)))).limit(1);
  return row ?? null;
}

/**
 * Marks the attempt used and takes its refresh token out of the row, in one statement: of concurrent polls
 * exactly one gets the token. Null when another poll got there first (or nothing was stored yet).
 */
export async function collectRefreshToken(db: DB, projectId: string, id: string): Promise<string | null> {
  // The subquery's row is read before the update, so RETURNING yields the token being erased.
  const rows = rowsOf<{ token: string }>(await db.execute(sql`
    update cli_auth_attempts a set used_at = now(), refresh_token_encrypted = null
    from (select id, refresh_token_encrypted from cli_auth_attempts
          where id = ${id} and project_id = ${projectId} and used_at is null and refresh_token_encrypted is not null
          for update) o
    where a.id = o.id
    returning o.refresh_token_encrypted as token`));
  return rows[0]?.token ?? null;
}

const live = () => and(isNull(c.refreshTokenEncrypted), isNull(c.usedAt), gt(c.expiresAt, sql`now()`));

/**
 * The project of the live, not yet completed attempt holding this login code, or null. The lookup is across
 * projects on purpose (protocol-auth §3.7 answers "Project ID mismatch" for another project's code, which tells
 * a browser on the wrong app what went wrong); callers compare the id and never see the other project's data.
 */
export async function projectOfLiveLoginCode(db: DB, loginCode: string): Promise<string | null> {
  const [row] = await db.select({ projectId: c.projectId }).from(c)
    .where(and(eq(c.loginCodeHash, hashSecret(loginCode)), live())).limit(1);
  return row?.projectId ?? null;
}

/** Stores the encrypted refresh token on a live, not yet completed attempt; false when there is none. */
export async function complete(db: DB, projectId: string, loginCode: string, refreshTokenEncrypted: string): Promise<boolean> {
  const rows = await db.update(c).set({ refreshTokenEncrypted })
    .where(and(eq(c.projectId, projectId), eq(c.loginCodeHash, hashSecret(loginCode)), live()))
    .returning({ id: c.id });
  return rows.length > 0;
}
