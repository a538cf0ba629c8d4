// Stored secrets written again under the current server secret after a rotation (security/reseal.ts): users' TOTP
// secrets (sealed at rest), OAuth provider tokens and webhook signing secrets (encrypted). Rows are read a page at a
// time and each is rewritten only if it still holds the value read (a concurrent change wins).
import { and, asc, eq, gt, isNotNull } from 'drizzle-orm';
import type { DB } from '../db';
import { schema } from '../db';
import { needsReseal, openBytes, sealBytes } from '../db/secrets-at-rest';

const PAGE = 500;

export async function resealTotpSecrets(db: DB): Promise<number> {
  const { users } = schema;
  let after = '00000000-0000-0000-0000-000000000000';
  let rewritten = 0;
  for (;;) {
    const rows = await db.select({ id: users.id, projectId: users.projectId, totpSecret: users.totpSecret }).from(users)
      .where(and(isNotNull(users.totpSecret), gt(users.id, after))).orderBy(asc(users.id)).limit(PAGE);
    for (const r of rows) {
      const stored = r.totpSecret!;
      if (!needsReseal(Buffer.from(stored).toString('utf8'))) continue;
      const next = sealBytes('totp-secret', openBytes('totp-secret', stored));
      const done = await db.update(users).set({ totpSecret: next })
        .where(and(eq(users.projectId, r.projectId), eq(users.id, r.id), eq(users.totpSecret, stored))).returning({ id: users.id });
      rewritten += done.length;
    }
    if (rows.length < PAGE) return rewritten;
    after = rows[rows.length - 1]!.id;
  }
}

/** `rewrite` answers the value encrypted under the current secret, or null when it already is. */
export type Reencrypt = (row: { projectId: string; value: string }) => string | null;

export async function reencryptProviderTokens(db: DB, rewrite: Reencrypt): Promise<number> {
  const t = schema.oauthTokens;
  return reencryptPages(db, async (after) => db.select({ id: t.id, projectId: t.projectId, value: t.tokenEncrypted }).from(t)
    .where(gt(t.id, after)).orderBy(asc(t.id)).limit(PAGE), async (row, next) => (await db.update(t).set({ tokenEncrypted: next })
    .where(and(eq(t.id, row.id), eq(t.tokenEncrypted, row.value))).returning({ id: t.id })).length, rewrite);
}

export async function reencryptWebhookSecrets(db: DB, rewrite: Reencrypt): Promise<number> {
  const t = schema.webhookEndpoints;
  return reencryptPages(db, async (after) => db.select({ id: t.id, projectId: t.projectId, value: t.secretEncrypted }).from(t)
    .where(gt(t.id, after)).orderBy(asc(t.id)).limit(PAGE), async (row, next) => (await db.update(t).set({ secretEncrypted: next })
    .where(and(eq(t.id, row.id), eq(t.secretEncrypted, row.value))).returning({ id: t.id })).length, rewrite);
}

type Row = { id: string; projectId: string; value: string };

async function reencryptPages(db: DB, page: (after: string) => Promise<Row[]>, write: (row: Row, next: string) => Promise<number>, rewrite: Reencrypt): Promise<number> {
  let after = '00000000-0000-0000-0000-000000000000';
  let rewritten = 0;
  for (;;) {
    const rows = await page(after);
    for (const row of rows) {
      const next = rewrite(row);
      if (next !== null) rewritten += await write(row, next);
    }
    if (rows.length < PAGE) return rewritten;
    after = rows[rows.length - 1]!.id;
  }
}
