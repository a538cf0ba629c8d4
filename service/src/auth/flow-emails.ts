// What the email flows share (protocol-auth §4, §5): code lifetimes, the trusted-callback rule, and queueing a
// templated mail whose link is the callback URL with `code=<code>`, in the same transaction as the code.
import { EMAIL_VERIFICATION_CODE_LIFETIME_MS, OTP_SIGN_IN_CODE_LIFETIME_MS, PASSWORD_RESET_CODE_LIFETIME_MS } from '@gatehouse/shared/constants';
import { redirectTrust } from '../projects/config-validation';
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { isTrustedRedirect, withQueryParam } from '@gatehouse/shared/rules/urls';
import type { DB } from '../db';
import type { Services } from '../services';
import type { Project } from '../repo/projects';
import { loadProjectTemplate } from '../repo/email-templates';
import { enqueueTemplatedEmail, outboxOf } from '../email/outbox';
import type { EmailTemplateType, EmailTemplateVariablesByType } from '@gatehouse/shared/email-templates';
import { createCode, redeemCode, type CodeRow, type CodeType } from '../repo/verification-codes';
import { byEmail, byIp, limitFailures, limitRequests } from './rate-limits';

/**
 * Code lifetimes (shared/src/constants.ts; the protocol's 7 days is far longer than any of these flows needs): a
 * sign-in code or magic link and a password-reset link are used within minutes, so 10 minutes (ASVS 2.7.2, 2.5.x);
 * an email-verification link may sit in the inbox until the next day, so 24 h. GATEHOUSE_EMAIL_CODE_LIFETIME_SECONDS
 * replaces all three (e.g. shorter, by policy).
 */
export const CODE_LIFETIME_MS = {
  one_time_password: OTP_SIGN_IN_CODE_LIFETIME_MS,
  password_reset: PASSWORD_RESET_CODE_LIFETIME_MS,
  contact_channel_verification: EMAIL_VERIFICATION_CODE_LIFETIME_MS,
} as const satisfies Partial<Record<CodeType, number>>;

export function assertTrustedCallback(project: Project, url: string) {
  const trusted = isTrustedRedirect(url, redirectTrust(project));
  if (!trusted) throw new KnownErrors.RedirectUrlNotWhitelisted();
}

type LinkVariable = { email_verification: 'emailVerificationLink'; password_reset: 'passwordResetLink'; magic_link: 'magicLink' };
type FlowType = keyof LinkVariable;
const LINK_VARIABLE: LinkVariable = { email_verification: 'emailVerificationLink', password_reset: 'passwordResetLink', magic_link: 'magicLink' };
const CODE_TYPE: Record<FlowType, keyof typeof CODE_LIFETIME_MS> = {
  email_verification: 'contact_channel_verification', password_reset: 'password_reset', magic_link: 'one_time_password',
};

export interface CodeEmail<T extends FlowType> {
  template: T;
  to: string;
  callbackUrl: string;
  method: Record<string, unknown>;
  data: Record<string, unknown>;
  /** Template variables besides the link (and projectDisplayName); `code` is the new code, for the OTP. */
  variables: (code: string) => Omit<EmailTemplateVariablesByType[T], 'projectDisplayName' | LinkVariable[T]>;
  magicLinkVersion?: 1 | 2;
}

/**
 * Creates the code and queues its mail in one transaction (`tx`, or a new one), so a code never exists without
 * its mail or the reverse. Returns the code. The mail goes out from the outbox; the caller never waits on SMTP.
 */
export async function createCodeAndQueueEmail<T extends FlowType>(services: Services, project: Project, e: CodeEmail<T>, tx?: DB): Promise<string> {
  assertTrustedCallback(project, e.callbackUrl);
  const work = async (db: DB) => {
    const expiresInMs = (services.config.emailCodeLifetimeSeconds ?? 0) * 1000 || CODE_LIFETIME_MS[CODE_TYPE[e.template]];
    const { code } = await createCode(db, {
      projectId: project.id, type: CODE_TYPE[e.template], expiresInMs,
      redirectUrl: e.callbackUrl, method: e.method, data: e.data,
    });
    const variables = { ...e.variables(code), [LINK_VARIABLE[e.template]]: withQueryParam(e.callbackUrl, 'code', code) };
    await enqueueTemplatedEmail(db, {
      projectId: project.id, projectDisplayName: project.displayName, emailConfig: project.config.email_config,
      to: e.to, type: e.template, variables: variables as never, codeExpiresAt: new Date(Date.now() + expiresInMs),
      template: await loadProjectTemplate(db, project.id, e.template as EmailTemplateType), magicLinkVersion: e.magicLinkVersion,
    }, outboxOf(services));
    return code;
  };
  if (tx) return work(tx);
  const code = await services.db.transaction(work);
  services.emailWorkers.wake();
  return code;
}

/**
 * Redeems (or, with consume false, checks) a code under the per-IP limit on failed code attempts. The §4.3
 * errors and the 20-attempt nonce limit come from `redeemCode`.
 */
export async function redeemFlowCode(services: Services, ip: string, project: Project, p: {
  type: CodeType; code: string; consume: boolean; validate?: (row: CodeRow) => Promise<void> | void;
}, after?: (row: CodeRow) => Promise<void>): Promise<CodeRow> {
  return limitFailures(services, [byIp(ip, 'code_attempt_ip', project.id)], async () => {
    const row = await redeemCode(services.db, { projectId: project.id, ...p });
    if (after) await after(row);
    return row;
  });
}

/** Counts a code-sending request per IP and per recipient (429 when over). */
export async function limitCodeSending(services: Services, ip: string, project: Project, email: string) {
  await limitRequests(services, [byIp(ip, 'code_send_ip', project.id), byEmail('code_send_email', project.id, email)]);
}
