// Mail sent outside the outbox (the test email of the email settings), recorded so the sent-email list shows it.
import type { DB } from '../db';
import { emailAttempts, emails } from '../db/schema';

type Row = typeof emails.$inferInsert;

/** EXPIRED: the outbox gave up on a mail (its code expired, or it was not delivered within the retry window). */
export type SendErrorType = 'CONNECTION_FAILED' | 'AUTH_FAILED' | 'TIMEOUT' | 'REJECTED' | 'TEMPORARY' | 'NOT_CONFIGURED' | 'EXPIRED' | 'UNKNOWN';

/** The JSON recorded as `error` of a sent-email entry (protocol-resources §12.2: `{rawError, errorType, canRetry, message}`). */
export type SendErrorInfo = {
  errorType: SendErrorType;
  canRetry: boolean;
  message: string;
  rawError: {
    name?: string;
    message: string;
    code?: string;
    originalCode?: string;
    responseCode?: number;
    command?: string;
    response?: string;
  };
};

/** The mail row and its one attempt, in one transaction (the list shows attempts; email/outbox.ts). */
export async function recordSentTestEmail(db: DB, m: {
  projectId: string; to: Row['to']; subject: string; text: Row['text']; sender: Row['senderConfig']; error: SendErrorInfo | null; at: Date;
}): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.insert(emails).values({
      projectId: m.projectId,
      to: m.to,
      subject: m.subject,
      html: null,
      text: m.text,
      senderConfig: m.sender,
      // Not a queued mail: nothing will ever resend it, so the password is not kept.
      transportConfig: null,
      status: m.error ? 'failed' : 'sent',
      attempts: 1,
      nextAttemptAt: m.at,
      lastAttemptAt: m.at,
      lastError: m.error,
      sentAt: m.error ? null : m.at,
    }).returning({ id: emails.id });
    await tx.insert(emailAttempts).values({ projectId: m.projectId, emailId: row!.id, error: m.error });
  });
}
