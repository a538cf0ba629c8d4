// The sent-emails list: newest first, filtered by address and by "failed only"; an email's error as text.
import type { AdminSentEmail } from '@gatehouse/shared/client';

export function hasFailed(e: AdminSentEmail): boolean {
  return e.error !== null && e.error !== undefined;
}

export function filterSentEmails(list: readonly AdminSentEmail[], o: { address: string; failedOnly: boolean }): AdminSentEmail[] {
  const needle = o.address.trim().toLowerCase();
  return list
    .filter((e) => !o.failedOnly || hasFailed(e))
    .filter((e) => !needle || e.to.some((to) => to.toLowerCase().includes(needle)))
    .sort((a, b) => b.sentAt.getTime() - a.sentAt.getTime());
}

/**
 * A readable form of a sent email's failure record (`{rawError, errorType, canRetry, message}`, or any JSON): what the
 * mail server answered, which the screen exists to show. Data of the record, not an error of the console.
 */
export function failureText(failure: unknown): string {
  if (failure === null || failure === undefined) return '';
  if (typeof failure === 'string') return failure;
  const record = failure as { message?: unknown; error_message?: unknown };
  const message = typeof record.message === 'string' ? record.message : typeof record.error_message === 'string' ? record.error_message : null;
  const json = JSON.stringify(failure, null, 2);
  return message && json.length <= message.length + 20 ? message : message ? `${message}\n\n${json}` : json;
}
