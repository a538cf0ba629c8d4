/**
 * SMTP transports built from a project's email config (protocol-auth §5.1):
 *   - standard: the project's own server; port 465 ⇒ implicit TLS, other ports upgrade with STARTTLS when offered.
 *   - standard with `require_tls`: STARTTLS required (a server without it fails the send).
 *   - shared: the operator's server from `SMTP_URL` (`smtp://user:pass@host:port`, `smtps://` for implicit TLS,
 *     `?requireTLS=true` to require STARTTLS, which production requires unless smtps://),
 *     sender `"<project display name>" <SMTP_SENDER>`. Without `SMTP_URL`, in development the mail is printed to
 *     the console instead and counts as sent, so a bare `npm start` can still sign people in. In production it
 *     is never printed (sign-in codes and reset links would end up in the logs): every send fails instead with
 *     a permanent NOT_CONFIGURED error, which the sent-email list shows.
 * Also classifies send failures (which are worth retrying, and how to word them).
 */
import nodemailer, { type SMTPTransportOptions } from 'nodemailer';
import { isIP } from 'node:net';
import { PrivateTargetRefused, resolveTarget, type OutboundPolicy } from '../net/outbound-targets';
import type { SendErrorInfo, SendErrorType } from '../repo/sent-emails';

export type SharedEmailConfig = { type: 'shared' };
export type StandardEmailConfig = {
  type: 'standard';
  host: string;
  port: number;
  username: string;
  password: string;
  sender_name: string;
  sender_email: string;
  /** Refuse to send over an unencrypted connection (STARTTLS required unless port 465). */
  require_tls?: boolean;
};
/** Same shape as `EmailConfig` of `@gatehouse/shared/schemas/projects`. */
export type EmailConfig = SharedEmailConfig | StandardEmailConfig;

/** What the sent-email list shows about the sender (`sender_config`, protocol-resources §12.2): never a password. */
export type SenderConfig = {
  type: 'shared' | 'standard';
  host: string;
  port: number;
  username: string;
  sender_name: string;
  sender_email: string;
};

/** The operator's SMTP settings for shared-config projects (env `SMTP_URL`, `SMTP_SENDER`). */
export type SharedSmtpSettings = {
  smtpUrl?: string;
  smtpSender: string;
  /**
   * Without `smtpUrl`: print mail to the console (true) or fail every send (false). Defaults to
   * "NODE_ENV is not production", so a caller that forgets to say never prints codes in production.
   */
  consoleFallback?: boolean;
};

export function sharedSmtpSettings(env: Record<string, string | undefined> = process.env): SharedSmtpSettings {
  return { smtpUrl: env.SMTP_URL || undefined, smtpSender: env.SMTP_SENDER || 'noreply@gatehouse.local', consoleFallback: env.NODE_ENV !== 'production' };
}

/** The error of every send of a shared-config mail when production has no `SMTP_URL`. */
export const NO_SHARED_SMTP_MESSAGE = 'no SMTP server configured for the shared email config; set SMTP_URL';

export type OutgoingMail = {
  to: string[];
  subject: string;
  html?: string | null;
  text?: string | null;
  /** Overrides the transport's sender (the outbox sends as recorded at enqueue time). */
  from?: { name: string; address: string };
  /**
   * The Message-ID header, `<id@domain>`: the outbox names each queued mail once, so a mail sent again after a worker
   * died mid-send (delivery is at least once) carries the same id, and a receiver can tell it is the same message.
   */
  messageId?: string;
};

export interface MailTransport {
  readonly sender: SenderConfig;
  /** No SMTP_URL: 'console' = mail is printed, not sent (development); 'unconfigured' = every send fails (production). */
  readonly mode: 'smtp' | 'console' | 'unconfigured';
  /** Resolves once the server accepted the message; rejects with a nodemailer-style error (see describeSendError). */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export type TransportOptions = {
  /** Sender name for the shared config. */
  projectDisplayName: string;
  shared?: SharedSmtpSettings;
  /** Upper bound for one whole send (connect + greeting + auth + data). */
  timeoutMs?: number;
  /**
   * May a project's own SMTP host (standard config) be on a private network? Default: no. The operator's shared
   * server (SMTP_URL) is the operator's choice and is not checked.
   */
  outbound?: OutboundPolicy;
};

const PHASE_TIMEOUT_MS = 10_000;
const DEFAULT_SEND_TIMEOUT_MS = 30_000;

type Resolved = { smtp: SMTPTransportOptions | null; console: boolean; sender: SenderConfig };

function resolve(config: EmailConfig, opts: TransportOptions): Resolved {
  const timeouts = { connectionTimeout: PHASE_TIMEOUT_MS, greetingTimeout: PHASE_TIMEOUT_MS, socketTimeout: PHASE_TIMEOUT_MS, dnsTimeout: PHASE_TIMEOUT_MS };
  if (config.type === 'standard') {
    return {
      smtp: {
        host: config.host,
        port: config.port,
        secure: config.port === 465,
        // nodemailer's requireTLS: a server that offers no STARTTLS fails the send (ETLS) instead of getting the mail in clear.
        ...(config.require_tls && config.port !== 465 ? { requireTLS: true } : {}),
        auth: { user: config.username, pass: config.password },
        ...timeouts,
      },
      console: false,
      sender: {
        type: 'standard',
        host: config.host,
        port: config.port,
        username: config.username,
        sender_name: config.sender_name,
        sender_email: config.sender_email,
      },
    };
  }
  const shared = opts.shared ?? sharedSmtpSettings();
  const base = { type: 'shared' as const, sender_name: opts.projectDisplayName, sender_email: shared.smtpSender };
  if (!shared.smtpUrl) {
    const toConsole = shared.consoleFallback ?? process.env.NODE_ENV !== 'production';
    // host '' rather than 'console' in production: nothing was printed, and the listed sender should not say so.
    return { smtp: null, console: toConsole, sender: { ...base, host: toConsole ? 'console' : '', port: 0, username: '' } };
  }

  const url = new URL(shared.smtpUrl);
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error(`SMTP_URL must start with smtp:// or smtps:// (got ${url.protocol})`);
  const port = url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587;
  const username = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  // URL keeps IPv6 hosts bracketed; sockets want them bare.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const smtp: SMTPTransportOptions = {
    host,
    port,
    secure: url.protocol === 'smtps:' || port === 465,
    ...(username ? { auth: { user: username, pass: password } } : {}),
    // Opt-outs for local/dev relays with self-signed or broken STARTTLS.
    ...(url.searchParams.get('ignoreTLS') === 'true' ? { ignoreTLS: true } : {}),
    // Required in production (config.ts, sharedSmtpTlsProblem): no mail in clear, whatever the server offers.
    ...(url.searchParams.get('requireTLS') === 'true' && url.protocol !== 'smtps:' && port !== 465 ? { requireTLS: true } : {}),
    ...(url.searchParams.get('rejectUnauthorized') === 'false' ? { tls: { rejectUnauthorized: false } } : {}),
    ...timeouts,
  };
  return { smtp, console: false, sender: { ...base, host, port, username } };
}

/** The `sender_config` a mail sent with this config will be listed with. */
export function senderConfigFor(config: EmailConfig, opts: TransportOptions): SenderConfig {
  return resolve(config, opts).sender;
}

function timeoutError(ms: number): Error {
  return Object.assign(new Error(`Sending timed out after ${ms} ms`), { code: 'ETIMEDOUT' });
}

export function createMailTransport(config: EmailConfig, opts: TransportOptions): MailTransport {
  const { smtp, console: toConsole, sender } = resolve(config, opts);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_SEND_TIMEOUT_MS;
  const fromOf = (mail: OutgoingMail) => mail.from ?? { name: sender.sender_name, address: sender.sender_email };

  if (!smtp && !toConsole) {
    return {
      sender,
      mode: 'unconfigured',
      async send() {
        throw Object.assign(new Error(NO_SHARED_SMTP_MESSAGE), { code: 'ENOSMTP' });
      },
      close() {},
    };
  }
  if (!smtp) {
    return {
      sender,
      mode: 'console',
      async send(mail) {
        const from = fromOf(mail);
        console.log(
          [
            '[email] SMTP_URL is not set; printing the mail instead of sending it',
            `  From: "${from.name}" <${from.address}>`,
            `  To: ${mail.to.join(', ')}`,
            `  Subject: ${mail.subject}`,
            '',
            ...(mail.text ?? '').split('\n').map((line) => `  ${line}`),
          ].join('\n'),
        );
      },
      close() {},
    };
  }

  // A project's own host is resolved and checked at each send, and the connection goes to the checked address
  // (the name stays the TLS server name). The operator's server is used as configured.
  const policy = config.type === 'standard' ? opts.outbound ?? { allowPrivateNetworks: false } : null;
  let transporter: ReturnType<typeof nodemailer.createTransport> | undefined;
  async function connectTo(): Promise<ReturnType<typeof nodemailer.createTransport>> {
    if (!policy) return (transporter ??= nodemailer.createTransport(smtp!));
    const host = smtp!.host!;
    const address = await resolveTarget(host, policy);
    transporter?.close();
    transporter = nodemailer.createTransport({ ...smtp!, host: address, ...(isIP(host) ? {} : { servername: host }) });
    return transporter;
  }
  return {
    sender,
    mode: 'smtp',
    async send(mail) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          transporter?.close();
          reject(timeoutError(timeoutMs));
        }, timeoutMs);
      });
      try {
        // The bound covers the name lookup too.
        const connected = await Promise.race([connectTo(), timeout]);
        await Promise.race([
          connected.sendMail({
            from: fromOf(mail),
            to: mail.to,
            subject: mail.subject,
            ...(mail.messageId ? { messageId: mail.messageId } : {}),
            ...(mail.text != null ? { text: mail.text } : {}),
            ...(mail.html != null ? { html: mail.html } : {}),
          }),
          timeout,
        ]);
      } finally {
        clearTimeout(timer);
      }
    },
    close() {
      transporter?.close();
    },
  };
}

// -------------------------------------------------------------------------------------------------------------
// Failure classification

// The stored form of a failure (a sent-email entry's `error`) is the repository's: repo/sent-emails.ts.
export type { SendErrorInfo, SendErrorType } from '../repo/sent-emails';

type SmtpishError = Error & { code?: unknown; originalCode?: unknown; responseCode?: unknown; command?: unknown; response?: unknown };

const CONNECTION_CODES = new Set(['ECONNECTION', 'ESOCKET', 'EDNS', 'ETLS', 'ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE']);

export function describeSendError(err: unknown): SendErrorInfo {
  const e: SmtpishError = err instanceof Error ? err : new Error(String(err));
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const code = str(e.code);
  const responseCode = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  const rawError: SendErrorInfo['rawError'] = {
    name: e.name,
    message: e.message,
    code,
    originalCode: str(e.originalCode),
    responseCode,
    command: str(e.command),
    response: str(e.response),
  };
  const info = (errorType: SendErrorType, canRetry: boolean): SendErrorInfo => ({ errorType, canRetry, message: e.message, rawError });

  // The operator must configure SMTP_URL (and restart): retrying before that only repeats the failure.
  if (code === 'ENOSMTP') return info('NOT_CONFIGURED', false);
  // A refused address stays refused until the project changes its config.
  if (err instanceof PrivateTargetRefused) return info('CONNECTION_FAILED', false);
  // A 4yz reply is "try again later", whatever command it answered.
  if (responseCode !== undefined && responseCode >= 400 && responseCode < 500) return info('TEMPORARY', true);
  if (code === 'ETIMEDOUT') return info('TIMEOUT', true);
  if (code === 'EAUTH' || code === 'ENOAUTH') return info('AUTH_FAILED', false);
  if (code && CONNECTION_CODES.has(code)) return info('CONNECTION_FAILED', true);
  // 5yz except 503 (bad sequence): the server will refuse this message again.
  if (responseCode !== undefined && responseCode >= 500 && responseCode !== 503) return info('REJECTED', false);
  if (code === 'ECONFIG' || code === 'EENVELOPE' || code === 'EMESSAGE') return info('REJECTED', false);
  return info('UNKNOWN', true);
}
