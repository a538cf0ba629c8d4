// The admin's view of a project's mail (protocol-resources §12.2, §12.3): a test email sent with given SMTP settings
// (recorded in the project's sent-email list), and that list.
import type { Services } from '../services';
import { StatusError } from '@gatehouse/shared/known-errors';
import { findSentEmail, listSentEmails, type SentEmailDetail, type SentEmailItem } from './outbox';
import { sendTestEmail, type TestEmailConfig, type TestEmailResult } from './test-email';

/**
 * Sends the test email now and waits for the answer (bounded to 10 s): the admin is waiting to learn whether the
 * settings work. Never fails on a send error: the result says what went wrong.
 */
export async function sendProjectTestEmail(
  services: Services, input: { projectId: string; projectDisplayName: string; emailConfig: TestEmailConfig; recipient: string },
): Promise<TestEmailResult> {
  return sendTestEmail(input.emailConfig, input.recipient, {
    log: { db: services.db, projectId: input.projectId }, outbound: services.config.outbound, projectDisplayName: input.projectDisplayName,
  });
}

/** The project's last 100 sent emails, newest first. */
export async function listProjectSentEmails(services: Services, input: { projectId: string }): Promise<SentEmailItem[]> {
  return listSentEmails(services.db, input.projectId);
}

/** One entry of that list with the recorded (redacted) copy of what was sent. */
export async function getProjectSentEmail(services: Services, input: { projectId: string; emailId: string }): Promise<SentEmailDetail> {
  const found = await findSentEmail(services.db, input.projectId, input.emailId);
  if (!found) throw new StatusError(404, 'Sent email not found');
  return found;
}
