/**
 * `POST /internal/send-test-email` logic (protocol-resources §12.3): send one plain-text mail synchronously,
 * bounded to 10 s, and turn any failure into one of the protocol's messages. Never throws for a send failure.
 */
import type { DB } from '../db/index';
import { recordSentTestEmail } from '../repo/sent-emails';
import type { OutboundPolicy } from '../net/outbound-targets';
import { createMailTransport, describeSendError, type SendErrorInfo, type StandardEmailConfig } from './transport';

export type TestEmailResult = { success: true } | { success: false; error_message: string };

/** The body's `email_config` (no `type`: it is always a standard config). */
export type TestEmailConfig = Omit<StandardEmailConfig, 'type'> & { type?: 'standard' };

/**
 * The product's and the project's names, not Stack's "Test Email from Stack Auth" (protocol-resources §12.3; issue
 * 26): an owner reading their inbox should see which server and which project sent it.
 */
export function testEmailSubject(projectDisplayName: string): string {
  return `Test email from Gatehouse for ${projectDisplayName}`;
}
const TEST_EMAIL_TEXT =
  'This is a test email sent from your project\'s email settings.\n\nIf you can read it, the email server configuration works.\n';

const MESSAGES = {
  connect: 'Failed to connect to the email host. Please make sure the email host configuration is correct.',
  auth: 'Failed to authenticate with the email server. Please check your email credentials configuration.',
  timeout: 'Timed out while sending test email. Make sure the email server is running and accepting connections.',
  unknown: 'Unknown error while sending test email. Make sure the email server is running and accepting connections.',
} as const;

export function testEmailErrorMessage(info: SendErrorInfo): string {
  switch (info.errorType) {
    case 'CONNECTION_FAILED':
      return MESSAGES.connect;
    case 'AUTH_FAILED':
      return MESSAGES.auth;
    case 'TIMEOUT':
      return MESSAGES.timeout;
    default:
      return MESSAGES.unknown;
  }
}

export async function sendTestEmail(
  emailConfig: TestEmailConfig,
  recipient: string,
  opts: {
    timeoutMs?: number;
    /** May the SMTP host be on a private network (the service's GATEHOUSE_ALLOW_PRIVATE_NETWORK_TARGETS)? */
    outbound?: OutboundPolicy;
    /** Writes the attempt to the project's sent-email list (`GET /internal/emails`). */
    log?: { db: DB; projectId: string };
    /** Names the project in the subject; the sender name stands in where the caller has no project. */
    projectDisplayName?: string;
  } = {},
): Promise<TestEmailResult> {
  const config: StandardEmailConfig = { ...emailConfig, type: 'standard' };
  const transport = createMailTransport(config, { projectDisplayName: config.sender_name, timeoutMs: opts.timeoutMs ?? 10_000, outbound: opts.outbound });
  const mail = { to: [recipient], subject: testEmailSubject(opts.projectDisplayName ?? config.sender_name), text: TEST_EMAIL_TEXT };
  let error: SendErrorInfo | null = null;
  try {
    await transport.send(mail);
  } catch (err) {
    error = describeSendError(err);
  } finally {
    transport.close();
  }

  if (opts.log) {
    const { projectId } = opts.log;
    await recordSentTestEmail(opts.log.db, {
      projectId, to: mail.to, subject: mail.subject, text: mail.text, sender: transport.sender, error, at: new Date(),
    });
  }
  return error ? { success: false, error_message: testEmailErrorMessage(error) } : { success: true };
}
