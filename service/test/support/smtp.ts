/**
 * A real SMTP server for tests: smtp-server on 127.0.0.1 (free port, no STARTTLS unless asked: then smtp-server's
 * own self-signed certificate, auth optional), every message
 * parsed with mailparser. `stop()` then `start()` brings it back on the same port, to play "SMTP down, then up".
 */
import { SMTPServer } from 'smtp-server';
import { simpleParser, type AddressObject } from 'mailparser';

export type ReceivedMail = {
  /** Header From, e.g. `"Acme" <noreply@example.com>`. */
  from: string;
  /** Header To addresses. */
  to: string[];
  /** SMTP envelope (RCPT TO) recipients. */
  envelopeTo: string[];
  subject: string;
  /** The Message-ID header as sent (`<id@domain>`), or '' without one. */
  messageId: string;
  text: string;
  html: string;
  /** Username the client authenticated with, if it did. */
  user?: string;
  /** Whether the session was encrypted (STARTTLS) when the message came. */
  secure: boolean;
  receivedAt: number;
};

export type SmtpFixtureOptions = {
  /** When set, AUTH with other credentials fails with 535 (clients that skip AUTH are still accepted). */
  auth?: { username: string; password: string };
  /** Recipients matching this are refused with a permanent 550. */
  rejectRecipients?: RegExp;
  /** Offer STARTTLS (with smtp-server's built-in self-signed certificate). */
  starttls?: boolean;
};

export interface SmtpFixture {
  readonly host: string;
  readonly port: number;
  /** `smtp://[user:pass@]127.0.0.1:<port>` */
  readonly url: string;
  readonly messages: ReceivedMail[];
  /** SMTP sessions opened so far (also those that sent nothing). */
  readonly connections: number;
  readonly running: boolean;
  /** First message (already received or still to come) matching `predicate`. */
  waitForMail(predicate?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** Closes the listener and drops open connections: clients now get ECONNREFUSED. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  clear(): void;
}

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  const list = Array.isArray(field) ? field : field ? [field] : [];
  return list.flatMap((a) => a.value.map((v) => v.address ?? '')).filter(Boolean);
}

export async function startSmtpFixture(opts: SmtpFixtureOptions = {}): Promise<SmtpFixture> {
  const host = '127.0.0.1';
  const messages: ReceivedMail[] = [];
  const waiters = new Set<(mail: ReceivedMail) => void>();
  let server: SMTPServer | null = null;
  let port = 0;
  let connections = 0;

  const create = () =>
    new SMTPServer({
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: opts.starttls ? [] : ['STARTTLS'],
      logger: false,
      closeTimeout: 100,
      onConnect(_session, callback) {
        connections++;
        callback();
      },
      onAuth(auth, _session, callback) {
        if (opts.auth && (auth.username !== opts.auth.username || auth.password !== opts.auth.password)) {
          return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
        }
        callback(null, { user: auth.username });
      },
      onRcptTo(address, _session, callback) {
        if (opts.rejectRecipients?.test(address.address)) {
          return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
        }
        callback();
      },
      onData(stream, session, callback) {
        simpleParser(stream)
          .then((parsed) => {
            const mail: ReceivedMail = {
              from: parsed.from?.text ?? '',
              to: addresses(parsed.to),
              envelopeTo: session.envelope.rcptTo.map((r) => r.address),
              subject: parsed.subject ?? '',
              messageId: parsed.messageId ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              user: typeof session.user === 'string' ? session.user : undefined,
              secure: session.secure === true,
              receivedAt: Date.now(),
            };
            messages.push(mail);
            for (const w of [...waiters]) w(mail);
            callback();
          })
          .catch((err: Error) => callback(err));
      },
    });

  const listen = (s: SMTPServer, p: number) =>
    new Promise<number>((resolve, reject) => {
      s.once('error', reject);
      s.listen(p, host, () => {
        s.off('error', reject);
        // A client that goes away mid-conversation (a service instance killed by the cluster test) is no failure of
        // the mail server: it drops that connection, as a real one does. Left unhandled, the event ended the test.
        s.on('error', (err: NodeJS.ErrnoException) => {
          if (!['ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(err.code ?? '')) console.error('[smtp fixture]', err);
        });
        const addr = s.server.address();
        resolve(typeof addr === 'object' && addr ? addr.port : p);
      });
    });

  const fixture: SmtpFixture = {
    host,
    get port() {
      return port;
    },
    get url() {
      const cred = opts.auth ? `${encodeURIComponent(opts.auth.username)}:${encodeURIComponent(opts.auth.password)}@` : '';
      return `smtp://${cred}${host}:${port}`;
    },
    messages,
    get connections() {
      return connections;
    },
    get running() {
      return server !== null;
    },
    waitForMail(predicate = () => true, timeoutMs = 20_000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = (mail: ReceivedMail) => {
          if (!predicate(mail)) return;
          waiters.delete(waiter);
          clearTimeout(timer);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`No matching mail within ${timeoutMs} ms (${messages.length} received)`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    async stop() {
      const s = server;
      if (!s) return;
      server = null;
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    async start() {
      if (server) return;
      const s = create();
      port = await listen(s, port);
      server = s;
    },
    clear() {
      messages.length = 0;
    },
  };
  await fixture.start();
  return fixture;
}

/** The first link in the text part that carries a `code` query parameter. */
export function extractCodeLink(mail: Pick<ReceivedMail, 'text'>): string | undefined {
  return /https?:\/\/[^\s<>"]*[?&]code=[^\s<>"]*/.exec(mail.text)?.[0];
}

/** The `code` query parameter of that link. */
export function extractCode(mail: Pick<ReceivedMail, 'text'>): string | undefined {
  const link = extractCodeLink(mail);
  return link ? new URL(link).searchParams.get('code') ?? undefined : undefined;
}

/** The 6-character one-time code: a line of its own in the text part (Crockford alphabet, upper case). */
export function extractOtp(mail: Pick<ReceivedMail, 'text'>): string | undefined {
  return /^[ \t]*([0-9A-HJKMNP-TV-Z]{6})[ \t]*$/m.exec(mail.text)?.[1];
}
