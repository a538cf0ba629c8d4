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

/** A readable form of the stored error (an object with a message, or any JSON). */
export function errorText(error: unknown): string {
  if (error === null || error === undefined) return '';
  if (typeof error === 'string') return error;
  const e = error as { message?: unknown; error_message?: unknown };
  const message = typeof e.message === 'string' ? e.message : typeof e.error_message === 'string' ? e.error_message : null;
  const json = JSON.stringify(error, null, 2);
  return message && json.length <= message.length + 20 ? message : message ? `${message}\n\n${json}` : json;
}
