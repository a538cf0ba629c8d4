// The test email and the sent-email list (admin; protocol-resources §12.2, §12.3).
import { SendTestEmailRequest, SendTestEmailResponse, SentEmail, SentEmailList } from '@gatehouse/shared/schemas/emails';
import { route } from '../http/route';
import { sendTestEmail } from '../email/test-email';
import { listSentEmails } from '../email/outbox';

export const internalEmailRoutes = [
  route({
    method: 'POST', path: '/internal/send-test-email', summary: 'Send a test email with the given SMTP settings (always 200: success or the error message)', tags: ['Emails'],
    access: ['admin'], body: SendTestEmailRequest, response: SendTestEmailResponse,
    async handler({ auth, body, services }) {
      const db = services.db;
      // Synchronous by design (bounded to 10 s): the admin is waiting to learn whether the settings work.
      return sendTestEmail(body.email_config, body.recipient_email, { log: { db, projectId: auth.project.id }, outbound: services.config.outbound });
    },
  }),
  route({
    method: 'GET', path: '/internal/emails', summary: "The project's last 100 sent emails, newest first", tags: ['Emails'],
    access: ['admin'], response: SentEmailList,
    async handler({ services, auth }) {
      const db = services.db;
      return { items: await listSentEmails(db, auth.project.id), is_paginated: false as const };
    },
  }),
];
