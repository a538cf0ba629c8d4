// The emails table's rules (client-library §7.3 "Emails"): the new-address check, the row order, and which
// menu items a row has, enabled or not and why. Pure, so every rule is unit-tested.
import { isStrictSignInEmail, isValidEmail } from '@gatehouse/shared/rules/email';
import type { MessageKey } from '../messages';

export interface EmailChannel {
  id: string;
  value: string;
  isPrimary: boolean;
  isVerified: boolean;
  usedForAuth: boolean;
}

/** The first failing message for an address being added (empty → required, as the person has typed nothing). */
export function newEmailProblem(value: string, channels: readonly { value: string }[]): MessageKey | null {
  if (!value.trim()) return 'settings.emails.required';
  if (!isValidEmail(value) || !isStrictSignInEmail(value)) return 'settings.emails.invalid';
  if (channels.some((c) => c.value === value)) return 'settings.emails.exists';
  return null;
}

/** Email rows: primary first, then verified first; otherwise as the service listed them. */
export function sortEmails<C extends EmailChannel>(channels: readonly C[]): C[] {
  return channels
    .map((c, i) => ({ c, i }))
    .sort((a, b) => Number(b.c.isPrimary) - Number(a.c.isPrimary) || Number(b.c.isVerified) - Number(a.c.isVerified) || a.i - b.i)
    .map((x) => x.c);
}

export type EmailAction = 'send-verification' | 'set-primary' | 'use-for-sign-in' | 'stop-sign-in' | 'remove';
export interface EmailMenuItem {
  action: EmailAction;
  /** Catalogue key of the tooltip explaining why the item is disabled; null when enabled. */
  disabledReason: MessageKey | null;
}

/** "Last sign-in email": exactly one email channel is used for sign-in. */
export function isLastSignInEmail(channels: readonly EmailChannel[]): boolean {
  return channels.filter((c) => c.usedForAuth).length === 1;
}

export function emailMenu(channel: EmailChannel, channels: readonly EmailChannel[]): EmailMenuItem[] {
  const last = isLastSignInEmail(channels);
  const items: EmailMenuItem[] = [];
  if (!channel.isVerified) items.push({ action: 'send-verification', disabledReason: null });
  if (!channel.isPrimary) items.push({ action: 'set-primary', disabledReason: channel.isVerified ? null : 'settings.emails.verifyFirst' });
  if (!channel.usedForAuth && channel.isVerified) items.push({ action: 'use-for-sign-in', disabledReason: null });
  if (channel.usedForAuth) items.push({ action: 'stop-sign-in', disabledReason: last ? 'settings.emails.lastSignInEmail' : null });
  items.push({ action: 'remove', disabledReason: last && channel.usedForAuth ? 'settings.emails.lastSignInEmail' : null });
  return items;
}
