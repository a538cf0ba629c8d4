// The test email and the sent-email list (admin; protocol-resources §12.2, §12.3; email/admin-emails.ts).
import { SendTestEmailRequest, SendTestEmailResponse, SentEmailList } from '@gatehouse/shared/schemas/emails';
import { route } from '../http/route';
import { listProjectSentEmails, sendProjectTestEmail } from '../email/admin-emails';

export const internalEmailRoutes = [
  route({
    method: 'POST', path: '/internal/send-test-email', summary: 'Send a test email with the given SMTP settings (always 200: success or the error message)', tags: ['Emails'],
    access: ['admin'], body: SendTestEmailRequest, response: SendTestEmailResponse,
    async handler({ auth, body, services }) {
      return sendProjectTestEmail(services, { projectId: auth.project.id, emailConfig: body.email_config, recipient: body.recipient_email });
    },
  }),
  route({
    method: 'GET', path: '/internal/emails', summary: "The project's last 100 sent emails, newest first", tags: ['Emails'],
    access: ['admin'], response: SentEmailList,
    async handler({ services, auth }) {
      return { items: await listProjectSentEmails(services, { projectId: auth.project.id }), is_paginated: false as const };
    },
  }),
];
