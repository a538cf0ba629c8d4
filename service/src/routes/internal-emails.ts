// The test email and the sent-email list (admin; protocol-resources §12.2, §12.3; email/admin-emails.ts).
import { SendTestEmailRequest, SendTestEmailResponse, SentEmailDetail, SentEmailList, EmailIdParams } from '@gatehouse/shared/schemas/emails';
import { route } from '../http/route';
import { getProjectSentEmail, listProjectSentEmails, sendProjectTestEmail } from '../email/admin-emails';

export const internalEmailRoutes = [
  route({
    method: 'POST', path: '/internal/send-test-email', summary: 'Send a test email with the given SMTP settings (always 200: success or the error message)', tags: ['Emails'],
    access: ['admin'], body: SendTestEmailRequest, response: SendTestEmailResponse,
    async handler({ auth, body, services }) {
      return sendProjectTestEmail(services, { projectId: auth.project.id, projectDisplayName: auth.project.displayName, emailConfig: body.email_config, recipient: body.recipient_email });
    },
  }),
  route({
    method: 'GET', path: '/internal/emails', summary: "The project's last 100 sent emails, newest first", tags: ['Emails'],
    access: ['admin'], response: SentEmailList,
    async handler({ services, auth }) {
      return { items: await listProjectSentEmails(services, { projectId: auth.project.id }), is_paginated: false as const };
    },
  }),
  route({
    method: 'GET', path: '/internal/emails/:email_id', summary: 'One sent email with what was sent (every code and link token replaced by a placeholder)', tags: ['Emails'],
    access: ['admin'], params: EmailIdParams, response: SentEmailDetail,
    async handler({ services, auth, params }) {
      return getProjectSentEmail(services, { projectId: auth.project.id, emailId: params.email_id });
    },
  }),
];
