// Email templates (admin; protocol-resources §12.1; email/custom-templates.ts). Content is Gatehouse's `{html, text}`
// model (see shared/src/schemas/email-templates.ts); a type without customisation is served as the built-in default.
import { Success } from '@gatehouse/shared/schemas/common';
import { EmailTemplate, EmailTemplateParams, EmailTemplateUpdate, EmailTemplateList } from '@gatehouse/shared/schemas/email-templates';
import { route } from '../http/route';
import { customiseEmailTemplate, getEmailTemplate, listEmailTemplates, resetEmailTemplate } from '../email/custom-templates';
import { emailTemplateView } from '../presenters/email-templates';

export const emailTemplateRoutes = [
  route({
    method: 'GET', path: '/email-templates', summary: 'List the four email templates (customised or default)', tags: ['Email templates'],
    access: ['admin'], response: EmailTemplateList,
    async handler({ services, auth }) {
      return { items: (await listEmailTemplates(services, { projectId: auth.project.id })).map(emailTemplateView), is_paginated: false as const };
    },
  }),
  route({
    method: 'GET', path: '/email-templates/:type', summary: 'Get an email template (customised or default)', tags: ['Email templates'],
    access: ['admin'], params: EmailTemplateParams, response: EmailTemplate,
    async handler({ services, auth, params }) {
      return emailTemplateView(await getEmailTemplate(services, { projectId: auth.project.id, type: params.type }));
    },
  }),
  route({
    method: 'PATCH', path: '/email-templates/:type', summary: 'Customise an email template (content is {html, text})', tags: ['Email templates'],
    access: ['admin'], params: EmailTemplateParams, body: EmailTemplateUpdate, response: EmailTemplate,
    async handler({ services, auth, params, body }) {
      return emailTemplateView(await customiseEmailTemplate(services, { projectId: auth.project.id, type: params.type, subject: body.subject, content: body.content }));
    },
  }),
  route({
    method: 'DELETE', path: '/email-templates/:type', summary: 'Reset an email template to the default', tags: ['Email templates'],
    access: ['admin'], params: EmailTemplateParams, response: Success,
    async handler({ services, auth, params }) {
      await resetEmailTemplate(services, { projectId: auth.project.id, type: params.type });
      return { success: true as const };
    },
  }),
];
