// Security notifications (ASVS 2.5.5, 2.2.3): the account's verified addresses hear of password changes and
// resets, sign-in emails added or removed, MFA turned off and passkeys added or removed, so that a takeover
// through a stolen session does not go unnoticed. Queued in the caller's transaction (mail only if the change
// commits); templates are the project's, editable like the others.
import type { DB } from '../db';
import { verifiedAddresses } from '../repo/contact-channels';
import { displayName } from '../repo/users';
import type { Services } from '../services';
import type { Project } from '../repo/projects';
import { loadProjectTemplate } from '../repo/email-templates';
import { enqueueTemplatedEmail, outboxOf } from '../email/outbox';
import type { EmailTemplateVariablesByType } from '@gatehouse/shared/email-templates';
import type { NewDeviceSignIn } from '../repo/activity';

export type NoticeType = 'password_changed' | 'sign_in_email_added' | 'sign_in_email_removed' | 'mfa_disabled' | 'passkey_added' | 'passkey_removed'
  | 'mfa_enabled' | 'otp_disabled' | 'new_device_sign_in';
type NoticeExtra<T extends NoticeType> = Omit<EmailTemplateVariablesByType[T], 'projectDisplayName' | 'userDisplayName'>;

/**
 * Queues the notice to each of `to` (default: the user's verified addresses now). Call `sendQueuedNotices(services)`
 * after the transaction commits.
 */
export async function queueNotice<T extends NoticeType>(db: DB, services: Services, project: Project, p: {
  userId: string; type: T; extra: NoticeExtra<T>; to?: string[];
}): Promise<number> {
  const to = p.to ?? (await verifiedAddresses(db, project.id, p.userId));
  if (to.length === 0) return 0;
  const userDisplayName = await displayName(db, project.id, p.userId);
  const template = await loadProjectTemplate(db, project.id, p.type);
  for (const address of to) {
    await enqueueTemplatedEmail(db, {
      projectId: project.id, projectDisplayName: project.displayName, emailConfig: project.config.email_config,
      to: address, type: p.type, template,
      variables: { ...p.extra, userDisplayName } as never,
    }, outboxOf(services));
  }
  return to.length;
}

/**
 * The notices of sign-ins from new devices (ASVS 2.5.5), for the projects that keep them on (the default): called by
 * the activity flush once the devices are remembered.
 */
export async function noticeNewDeviceSignIns(services: Services, signIns: NewDeviceSignIn[]): Promise<void> {
  let queued = 0;
  for (const s of signIns) {
    const project = await services.projects.get(s.projectId);
    if (!project?.security.new_device_sign_in_notice_enabled) continue;
    queued += await queueNotice(services.db, services, project, { userId: s.userId, type: 'new_device_sign_in', extra: { device: s.device.label, ipAddress: s.device.ip } });
  }
  if (queued) sendQueuedNotices(services);
}

/** Wakes the mail workers once the caller's transaction has committed. */
export function sendQueuedNotices(services: Pick<Services, 'emailWorkers'>): void {
  services.emailWorkers.wake();
}
