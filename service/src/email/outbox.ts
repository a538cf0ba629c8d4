/**
 * Durable email outbox. Requests only insert a row into `emails` (inside their own transaction when they pass
 * one) and never wait on SMTP; a worker delivers rows in the background. The row holds the latest outcome
 * (status, last_error); every finished attempt, success or failure, is also logged as an `email_attempts` row,
 * and those rows are the sent-email list.
 *
 * Row life cycle: pending → sending → sent | pending (retry with back-off) | failed.
 *   - Claiming is one `UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED)`, so any number of workers (in any
 *     number of service instances) share the table without sending a row twice.
 *   - While a row is 'sending', `next_attempt_at` is its lease expiry. A worker that dies mid-send leaves the row
 *     'sending'; once the lease has passed, a worker logs that attempt as failed (outcome unknown) and puts the
 *     row back to 'pending', so it is sent again (the mail may then go out twice: delivery is at least once,
 *     which beats never).
 *   - `attempts` counts started attempts; it is bumped at claim time so a row that keeps crashing workers still
 *     reaches `maxAttempts`. The outcome update is fenced on (status, attempts): a worker whose lease was taken
 *     over cannot overwrite the newer attempt's result, nor log its attempt a second time.
 *   - Each outcome update and its attempt log entry are one statement, so neither exists without the other.
 *   - All times come from the database clock (`now()`), so instances need not agree on the time.
 * The statements are in repo/email-outbox.ts.
 */
import type { DB } from '../db/index';
import type { OutboundPolicy } from '../net/outbound-targets';
import {
  claimDueEmails,
  expirePastDeadline,
  insertQueuedEmail,
  isTransaction,
  listEmailAttempts, findEmailAttempt,
  recordEmailOutcome,
  releaseExpiredLeases,
  type EmailRow,
} from '../repo/email-outbox';
import { decryptString, encryptString } from '../tokens/encryption';
import { openSecret, sealSecret } from '../db/secrets-at-rest';
import { backoffDelayMs as backoff, startPollingLoop, type Wakers } from '../worker-loop';
import type { Services } from '../services';
import {
  createMailTransport,
  describeSendError,
  senderConfigFor,
  type EmailConfig,
  type SendErrorInfo,
  type SenderConfig,
  type SharedSmtpSettings,
} from './transport';
import { renderSentAndRecorded } from './redaction';
import { traced } from '../observability/tracing';
import {
  defaultMailTemplate,
  type EmailTemplateSource,
  type MailType,
  type MailVariablesByType,
} from '@gatehouse/shared/email-templates';

// ---------------------------------------------------------------------------------------------------------------
// The message at rest. A queued mail carries live codes (sign-in, reset, verification, invitation), which are
// otherwise stored only hashed. Two copies are written: the live message (subject, html, text), sealed with
// AES-256-GCM under a key derived from the server secret while queued and deleted once the mail is delivered or has
// finally failed; and the recorded one (`subject`, `redacted_html`, `redacted_text`), the same mail with every code
// and link token replaced by a placeholder (email/redaction.ts), kept for the sent-email list and the owner. Rows
// written before this (or by a process without the secret) are read as they are.

const SEALED = 'sealed:';
const BODY_PURPOSE = 'email-body';

function sealBody(bodySecret: string | undefined, value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return bodySecret ? SEALED + encryptString(bodySecret, BODY_PURPOSE, value) : value;
}

function openBody(bodySecret: string | undefined, value: string | null): string | null {
  if (value === null || !value.startsWith(SEALED)) return value;
  if (!bodySecret) throw new Error('This email body is sealed and this process has no server secret to open it');
  return decryptString(bodySecret, BODY_PURPOSE, value.slice(SEALED.length));
}

// ---------------------------------------------------------------------------------------------------------------
// Enqueueing

/** What queueing a mail takes from the running service (`outboxOf(services)`). */
export interface OutboxContext {
  /** The operator's SMTP server, for projects using the shared email config. */
  shared?: SharedSmtpSettings;
  /** Queued bodies are sealed with it (the server secret); without one they are stored as they are. */
  bodySecret?: string;
  /** The email workers of this process (Services.emailWorkers), woken when a mail is queued outside a transaction. */
  workers?: Wakers;
}

export function outboxOf(services: Pick<Services, 'config' | 'secret' | 'emailWorkers'>): OutboxContext {
  return {
    shared: { smtpUrl: services.config.smtpUrl, smtpSender: services.config.smtpSender },
    bodySecret: services.secret,
    workers: services.emailWorkers,
  };
}

export type EnqueueEmailInput = {
  projectId: string;
  /** Sender name when the project uses the shared email config. */
  projectDisplayName: string;
  emailConfig: EmailConfig;
  to: string | string[];
  subject: string;
  html?: string | null;
  text?: string | null;
  /** Expiry of the code the mail carries: it is retried until then and never sent after. */
  codeExpiresAt?: Date | null;
};

/**
 * Queues one mail that holds no secret (no code, link token or password): it is recorded as it is sent. Mails with
 * codes are templated (`enqueueTemplatedEmail`), which records them redacted. `db` may be a transaction: the row
 * then commits (or not) with the caller's work, and the caller should wake the workers
 * (`services.emailWorkers.wake()`) after the commit (otherwise the next poll, ≤ pollMs later, sends it).
 */
export async function enqueueEmail(db: DB, input: EnqueueEmailInput, opts: OutboxContext = {}): Promise<{ id: string }> {
  return queueMail(db, input, { subject: input.subject, html: input.html ?? null, text: input.text ?? null }, opts);
}

type RecordedEmail = { subject: string; html: string | null; text: string | null };

/** Queues `input` (the live message, sealed) and records `recorded` (what the sent-email list keeps). */
async function queueMail(db: DB, input: EnqueueEmailInput, recorded: RecordedEmail, opts: OutboxContext): Promise<{ id: string }> {
  const queued = await insertQueuedEmail(db, {
    projectId: input.projectId,
    to: Array.isArray(input.to) ? input.to : [input.to],
    subject: recorded.subject,
    liveSubject: sealBody(opts.bodySecret, input.subject),
    html: sealBody(opts.bodySecret, input.html),
    text: sealBody(opts.bodySecret, input.text),
    redactedHtml: recorded.html,
    redactedText: recorded.text,
    senderConfig: senderConfigFor(input.emailConfig, { projectDisplayName: input.projectDisplayName, shared: opts.shared }),
    // The full config (password included) is kept until the row is delivered: the project may change its
    // settings meanwhile, and the mail should go out as it was when requested. The password stays sealed.
    transportConfig: input.emailConfig.type === 'standard' ? { ...input.emailConfig, password: sealSecret('smtp-password', input.emailConfig.password) } : null,
    codeExpiresAt: input.codeExpiresAt ?? null,
  });
  if (!isTransaction(db)) opts.workers?.wake();
  return queued;
}

export type EnqueueTemplatedEmailInput<T extends MailType> = Omit<EnqueueEmailInput, 'subject' | 'html' | 'text'> & {
  type: T;
  /** Everything but `projectDisplayName`, which is filled in from the input. */
  variables: Omit<MailVariablesByType[T], 'projectDisplayName'>;
  /** The project's customised template, if any; else the built-in default. */
  template?: EmailTemplateSource | null;
  /** Default magic-link version (see `magicLinkTemplateVersion`); ignored when `template` is given. */
  magicLinkVersion?: 1 | 2;
};

/** Renders a template (custom or default) and queues the result. */
export async function enqueueTemplatedEmail<T extends MailType>(
  db: DB,
  input: EnqueueTemplatedEmailInput<T>,
  opts: OutboxContext = {},
): Promise<{ id: string }> {
  const template = input.template ?? defaultMailTemplate(input.type, { magicLinkVersion: input.magicLinkVersion });
  const { sent, recorded } = renderSentAndRecorded(template, input.type, { ...input.variables, projectDisplayName: input.projectDisplayName });
  return queueMail(db, { ...input, ...sent }, recorded, opts);
}

// ---------------------------------------------------------------------------------------------------------------
// Worker

export type EmailWorkerOptions = {
  /** Poll interval when idle (a kick wakes it at once). Default 1000 ms. */
  pollMs?: number;
  /** Rows claimed (and sent concurrently) per round. Default 10. */
  batchSize?: number;
  /** Attempts before a row is given up as 'failed'. Default: no limit (the mail's deadline bounds the retries). */
  maxAttempts?: number;
  /**
   * How long a mail without a code is retried (GATEHOUSE_EMAIL_RETRY_MAX_AGE_SECONDS). Default 24 h. A mail carrying
   * a code is retried until the code expires instead, then marked "expired before delivery" and never sent.
   */
  maxAgeMs?: number;
  /** Retry back-off: base · 2^(attempt−1), capped, with jitter. Defaults 2 s and 10 min. */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /** How long a claimed row stays reserved for its worker. Must exceed sendTimeoutMs. Default 2 min. */
  leaseMs?: number;
  /** Upper bound of one delivery attempt. Default 30 s. */
  sendTimeoutMs?: number;
  shared?: SharedSmtpSettings;
  /** May projects' own SMTP hosts be on private networks? Default: no (the service passes its configured policy). */
  outbound?: OutboundPolicy;
  logger?: Pick<Console, 'warn' | 'error'>;
  /** Opens sealed bodies (the server secret). */
  bodySecret?: string;
  /** Where the worker registers its wake-up call (Services.emailWorkers). */
  wakers?: Wakers;
};

export interface EmailWorker {
  /** Stops polling and waits for the sends in flight to be recorded. */
  stop(): Promise<void>;
  /** Look for due rows now (call after committing a transaction that enqueued mail). */
  kick(): void;
}

/** Delay before attempt n+1 after n failed attempts (worker-loop.ts), with the email defaults. */
export function backoffDelayMs(attempts: number, baseMs = 2_000, capMs = 600_000, random: () => number = Math.random): number {
  return backoff(attempts, baseMs, capMs, random);
}

export function startEmailWorker(db: DB, options: EmailWorkerOptions = {}): EmailWorker {
  const o = {
    pollMs: options.pollMs ?? 1_000,
    batchSize: options.batchSize ?? 10,
    maxAttempts: options.maxAttempts ?? 2_147_483_647, // the column is an int4
    maxAgeMs: options.maxAgeMs ?? 86_400_000,
    backoffBaseMs: options.backoffBaseMs ?? 2_000,
    backoffCapMs: options.backoffCapMs ?? 600_000,
    leaseMs: options.leaseMs ?? 120_000,
    sendTimeoutMs: options.sendTimeoutMs ?? 30_000,
    logger: options.logger ?? console,
  };
  /** Mails past their deadline and not sent: failed for good, bodies deleted, the reason logged as an attempt. */
  async function expire(): Promise<void> {
    const codeExpired = expiredError('Expired before delivery: the code in this email expired before a mail server accepted it, so it was not sent');
    const window = o.maxAgeMs >= 3_600_000 ? `${Math.round(o.maxAgeMs / 3_600_000)} h` : `${Math.round(o.maxAgeMs / 1000)} s`;
    const tooOld = expiredError(`Not delivered within ${window} of being queued: no more attempts`);
    await expirePastDeadline(db, o.maxAgeMs, codeExpired, tooOld);
  }

  async function claim(): Promise<EmailRow[]> {
    await expire();
    await releaseExpiredLeases(db, o.maxAttempts, leaseExpiredError());
    return claimDueEmails(db, o);
  }

  // A span per send when tracing is on: the message's id only (never the address, subject or body).
  const deliver = (row: EmailRow) => traced('email.send', { 'gatehouse.email.id': row.id, 'gatehouse.project_id': row.projectId }, () => send(row));

  async function send(row: EmailRow): Promise<void> {
    const sender = row.senderConfig as SenderConfig;
    let error: SendErrorInfo | null = null;
    try {
      const stored = (row.transportConfig as EmailConfig | null) ?? { type: 'shared' };
      const config: EmailConfig = stored.type === 'standard' ? { ...stored, password: openSecret('smtp-password', stored.password) } : stored;
      const transport = createMailTransport(config, { projectDisplayName: sender.sender_name, shared: options.shared, timeoutMs: o.sendTimeoutMs, outbound: options.outbound });
      try {
        await transport.send({
          to: row.to,
          // Rows queued before subjects were recorded redacted have none: their subject is the live one.
          subject: openBody(options.bodySecret, row.liveSubject) ?? row.subject,
          html: openBody(options.bodySecret, row.html),
          text: openBody(options.bodySecret, row.text),
          from: { name: sender.sender_name, address: sender.sender_email },
          messageId: messageIdOf(row.id, sender.sender_email),
        });
      } finally {
        transport.close();
      }
    } catch (err) {
      error = describeSendError(err);
    }

    if (!error) {
      await recordEmailOutcome(db, row, { kind: 'sent' });
      return;
    }
    const giveUp = !error.canRetry || row.attempts >= o.maxAttempts;
    if (giveUp) {
      await recordEmailOutcome(db, row, { kind: 'failed', error });
      o.logger.warn(`[email] giving up on ${row.id} to ${row.to.join(', ')} after ${row.attempts} attempt(s): ${error.errorType} ${error.message}`);
      return;
    }
    const delay = backoffDelayMs(row.attempts, o.backoffBaseMs, o.backoffCapMs);
    await recordEmailOutcome(db, row, { kind: 'retry', error, delayMs: delay, maxAgeMs: o.maxAgeMs });
    o.logger.warn(`[email] attempt ${row.attempts} for ${row.id} failed (${error.errorType}: ${error.message}); retrying in ${delay} ms`);
  }

  /** Returns the number of rows handled. */
  async function round(): Promise<number> {
    const rows = await claim();
    await Promise.all(
      rows.map((row) =>
        deliver(row).catch((err) => o.logger.error(`[email] could not record the outcome for ${row.id}:`, err)),
      ),
    );
    return rows.length;
  }

  const polling = startPollingLoop({
    pollMs: o.pollMs, batchSize: o.batchSize, round, onRoundError: (err) => o.logger.error('[email] outbox round failed:', err),
  });
  const unregister = options.wakers?.add(polling.kick);
  return {
    kick: polling.kick,
    async stop() {
      unregister?.();
      await polling.stop();
    },
  };
}

function expiredError(message: string): SendErrorInfo {
  return { errorType: 'EXPIRED', canRetry: false, message, rawError: { message } };
}

/** The same for every attempt at one queued mail (the row's id), on the sender's domain. */
export function messageIdOf(rowId: string, senderEmail: string): string {
  const domain = /@([^@\s>]+)$/.exec(senderEmail)?.[1] ?? 'gatehouse.local';
  return `<${rowId}@${domain}>`;
}

function leaseExpiredError(): SendErrorInfo {
  const message = 'The worker sending this email stopped before recording the outcome';
  return { errorType: 'UNKNOWN', canRetry: false, message, rawError: { message } };
}

// ---------------------------------------------------------------------------------------------------------------
// Sent-email list (`GET /internal/emails`, protocol-resources §12.2)
//
// One entry per finished attempt ("every attempt is logged to the project's sent-email list", protocol-auth
// §5.1): a mail retried three times before it went out is listed four times, each with that attempt's time
// and error (null only for the attempt the server accepted). Each entry's `id` is the attempt's own id, so ids
// are unique within the list. A mail not attempted yet (still queued) is not listed at all: listing it with
// `error: null` would make it look delivered; it appears once its first attempt has an outcome.

export type SentEmailItem = {
  id: string;
  to: string[];
  subject: string;
  sent_at_millis: number;
  error: unknown | null;
  sender_config: SenderConfig;
};

type AttemptRow = Awaited<ReturnType<typeof listEmailAttempts>>[number];

function sentEmailItem(r: AttemptRow): SentEmailItem {
  const s = r.senderConfig as SenderConfig;
  return {
    id: r.id,
    to: r.to,
    subject: r.subject,
    sent_at_millis: r.at.getTime(),
    error: r.error ?? null,
    // Picked field by field: whatever else the JSON holds never reaches the wire.
    sender_config: {
      host: s.host,
      port: s.port,
      sender_email: s.sender_email,
      sender_name: s.sender_name,
      type: s.type,
      username: s.username,
    },
  };
}

export async function listSentEmails(db: DB, projectId: string): Promise<SentEmailItem[]> {
  return (await listEmailAttempts(db, projectId)).map(sentEmailItem);
}

/**
 * One entry of the list with what was sent: the recorded copy of its HTML and text, every one-time code and link
 * token replaced by a placeholder (email/redaction.ts). Both are null for mail recorded before copies were kept.
 */
export type SentEmailDetail = SentEmailItem & { html: string | null; text: string | null };

export async function findSentEmail(db: DB, projectId: string, id: string): Promise<SentEmailDetail | undefined> {
  const row = await findEmailAttempt(db, projectId, id);
  return row && { ...sentEmailItem(row), html: row.html, text: row.text };
}
