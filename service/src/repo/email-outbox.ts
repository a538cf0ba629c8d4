// The email outbox's statements (email/outbox.ts holds the life cycle they implement: claim, lease, outcome).
// All times come from the database clock (`now()`), so instances need not agree on the time.
import { and, desc, eq, inArray, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { PgTransaction, type PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { DB } from '../db/index';
import { emailAttempts, emails } from '../db/schema';
import type { SendErrorInfo } from './sent-emails';
import { isUuid } from './users';

export type EmailRow = typeof emails.$inferSelect;
export type NewEmailRow = Pick<typeof emails.$inferInsert,
  'projectId' | 'to' | 'subject' | 'liveSubject' | 'html' | 'text' | 'redactedHtml' | 'redactedText' | 'senderConfig' | 'transportConfig' | 'codeExpiresAt'>;

/** Is `db` a transaction (whose writes are not visible to the workers until the caller commits)? */
export function isTransaction(db: DB): boolean {
  return db instanceof PgTransaction;
}

export async function insertQueuedEmail(db: DB, values: NewEmailRow): Promise<{ id: string }> {
  const [row] = await db.insert(emails).values({ ...values, status: 'pending' }).returning({ id: emails.id });
  return { id: row!.id };
}

const afterMs = (ms: number) => sql`now() + (${ms}::double precision * interval '1 millisecond')`;

/** A mail is retried until its deadline: its code's expiry, or its age limit. */
const deadlineOf = (maxAgeMs: number) =>
  sql`coalesce(${emails.codeExpiresAt}, ${emails.createdAt} + (${maxAgeMs}::double precision * interval '1 millisecond'))`;

/**
 * Updates the outbox rows matching `where` and logs one attempt with `error` (null = delivered) for each row the
 * update changed: `WITH changed AS (UPDATE … RETURNING) INSERT INTO email_attempts SELECT … FROM changed`, so
 * neither the outcome nor its log entry exists without the other.
 */
async function recordAttempts(db: DB, where: SQL | undefined, set: PgUpdateSetSource<typeof emails>, error: SendErrorInfo | null): Promise<number> {
  const changed = db.$with('changed').as(db.update(emails).set(set).where(where).returning({ id: emails.id, projectId: emails.projectId }));
  // Insert … select must name every column of the table, in order.
  const logged = await db.with(changed).insert(emailAttempts).select(db.select({
    id: sql`gen_random_uuid()`.as('id'),
    projectId: changed.projectId,
    emailId: sql`${changed.id}`.as('email_id'),
    // A JS null would become JSON null ('null'::jsonb); a success is SQL NULL.
    error: (error ? sql`${JSON.stringify(error)}::jsonb` : sql`null::jsonb`).as('error'),
    createdAt: sql`now()`.as('created_at'),
  }).from(changed)).returning({ id: emailAttempts.id });
  return logged.length;
}

/** A mail given up: its live message and transport config deleted (the recorded, redacted copy stays). */
const DEAD = { status: 'failed', transportConfig: null, liveSubject: null, html: null, text: null } as const;

/**
 * Pending mails past their deadline: failed for good, live message deleted, the reason logged as an attempt
 * (`codeExpired` for mails carrying a code, `tooOld` for the others).
 */
export async function expirePastDeadline(db: DB, maxAgeMs: number, codeExpired: SendErrorInfo, tooOld: SendErrorInfo): Promise<void> {
  const pastDeadline = and(eq(emails.status, 'pending'), lte(deadlineOf(maxAgeMs), sql`now()`));
  await recordAttempts(db, and(pastDeadline, isNotNull(emails.codeExpiresAt)), { ...DEAD, lastError: codeExpired }, codeExpired);
  await recordAttempts(db, and(pastDeadline, isNull(emails.codeExpiresAt)), { ...DEAD, lastError: tooOld }, tooOld);
}

/**
 * Rows whose worker died mid-attempt (lease passed): that attempt is logged as failed with `error`, and the row
 * is due again at once, unless it was its last allowed attempt. A concurrent worker's identical update waits on
 * the row locks, then no longer matches the rows (now 'pending' or 'failed'): each is logged once.
 */
export async function releaseExpiredLeases(db: DB, maxAttempts: number, error: SendErrorInfo): Promise<void> {
  const lastTry = sql`${emails.attempts} >= ${maxAttempts}`;
  await recordAttempts(
    db,
    and(eq(emails.status, 'sending'), lte(emails.nextAttemptAt, sql`now()`)),
    {
      status: sql`case when ${lastTry} then 'failed' else 'pending' end`,
      lastError: sql`${JSON.stringify(error)}::jsonb`,
      transportConfig: sql`case when ${lastTry} then null else ${emails.transportConfig} end`,
      liveSubject: sql`case when ${lastTry} then null else ${emails.liveSubject} end`,
      html: sql`case when ${lastTry} then null else ${emails.html} end`,
      text: sql`case when ${lastTry} then null else ${emails.text} end`,
    },
    error,
  );
}

/**
 * Claims up to `batchSize` due rows: one `UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED)`, so any number
 * of workers share the table without sending a row twice. The claimed row is 'sending', its attempt counted,
 * and `next_attempt_at` is its lease expiry.
 */
export async function claimDueEmails(db: DB, o: { batchSize: number; leaseMs: number; maxAgeMs: number }): Promise<EmailRow[]> {
  const due = db
    .select({ id: emails.id })
    .from(emails)
    .where(and(eq(emails.status, 'pending'), lte(emails.nextAttemptAt, sql`now()`), sql`${deadlineOf(o.maxAgeMs)} > now()`))
    .orderBy(emails.nextAttemptAt)
    .limit(o.batchSize)
    .for('update', { skipLocked: true });
  return db
    .update(emails)
    .set({
      status: 'sending',
      attempts: sql`${emails.attempts} + 1`,
      lastAttemptAt: sql`now()`,
      nextAttemptAt: afterMs(o.leaseMs),
    })
    .where(inArray(emails.id, due))
    .returning();
}

/**
 * The outcome of the attempt that claimed `row`, fenced on (status, attempts): a worker whose lease was taken
 * over cannot overwrite the newer attempt's result, nor log its attempt a second time.
 *   - sent: the live message and transport config deleted.
 *   - failed: given up, same deletions.
 *   - retry: pending again after `delayMs`, never later than the deadline (so an expired mail is marked as such
 *     when it expires).
 */
export async function recordEmailOutcome(
  db: DB,
  row: Pick<EmailRow, 'id' | 'attempts'>,
  outcome: { kind: 'sent' } | { kind: 'failed'; error: SendErrorInfo } | { kind: 'retry'; error: SendErrorInfo; delayMs: number; maxAgeMs: number },
): Promise<void> {
  const mine = and(eq(emails.id, row.id), eq(emails.status, 'sending'), eq(emails.attempts, row.attempts));
  if (outcome.kind === 'sent') {
    await recordAttempts(db, mine, { status: 'sent', sentAt: sql`now()`, lastError: null, transportConfig: null, liveSubject: null, html: null, text: null }, null);
  } else if (outcome.kind === 'failed') {
    await recordAttempts(db, mine, { ...DEAD, lastError: outcome.error }, outcome.error);
  } else {
    const nextAttemptAt = sql`least(${afterMs(outcome.delayMs)}, ${deadlineOf(outcome.maxAgeMs)})`;
    await recordAttempts(db, mine, { status: 'pending', lastError: outcome.error, nextAttemptAt }, outcome.error);
  }
}

/** The project's newest 100 finished attempts with their mail (email_attempts_project_idx). */
export async function listEmailAttempts(db: DB, projectId: string) {
  return db
    .select({
      id: emailAttempts.id,
      to: emails.to,
      subject: emails.subject,
      senderConfig: emails.senderConfig,
      error: emailAttempts.error,
      at: emailAttempts.createdAt,
    })
    .from(emailAttempts)
    .innerJoin(emails, and(eq(emails.id, emailAttempts.emailId), eq(emails.projectId, projectId)))
    .where(eq(emailAttempts.projectId, projectId))
    .orderBy(desc(emailAttempts.createdAt), desc(emailAttempts.id))
    .limit(100);
}

/** One attempt of the list with the redacted copy of what was sent (its HTML and text), or undefined. */
export async function findEmailAttempt(db: DB, projectId: string, attemptId: string) {
  // Ids are the attempts' UUIDs: anything else names no entry (and must not reach a uuid column as a 500).
  if (!isUuid(attemptId)) return undefined;
  const [row] = await db
    .select({
      id: emailAttempts.id,
      to: emails.to,
      subject: emails.subject,
      senderConfig: emails.senderConfig,
      error: emailAttempts.error,
      at: emailAttempts.createdAt,
      html: emails.redactedHtml,
      text: emails.redactedText,
    })
    .from(emailAttempts)
    .innerJoin(emails, and(eq(emails.id, emailAttempts.emailId), eq(emails.projectId, projectId)))
    .where(and(eq(emailAttempts.projectId, projectId), eq(emailAttempts.id, attemptId)))
    .limit(1);
  return row;
}
