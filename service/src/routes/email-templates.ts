// Email templates (admin; protocol-resources §12.1). Content is Gatehouse's `{html, text}` model (see
// shared/src/schemas/email-templates.ts); a type without customisation is served as the built-in default.
import { Value } from '@sinclair/typebox/value';
import { KnownErrors, StatusError } from '@gatehouse/shared/known-errors';
import { Success } from '@gatehouse/shared/schemas/common';
import { EMAIL_TEMPLATE_TYPES, EmailTemplate, EmailTemplateContent, EmailTemplateParams, EmailTemplateType, EmailTemplateUpdate, EmailTemplateList } from '@gatehouse/shared/schemas/email-templates';
import { route } from '../http/route';
import { DEFAULT_EMAIL_TEMPLATES, type EmailTemplateSource } from '@gatehouse/shared/email-templates';
import * as templates from '../repo/email-templates';
import * as projects from '../repo/projects';


function view(type: EmailTemplateType, custom: EmailTemplateSource | null | undefined): EmailTemplate {
  const t = custom ?? DEFAULT_EMAIL_TEMPLATES[type];
  return { type, subject: t.subject, content: { html: t.content.html, text: t.content.text }, is_default: !custom };
}

export const emailTemplateRoutes = [
  route({
    method: 'GET', path: '/email-templates', summary: 'List the four email templates (customised or default)', tags: ['Email templates'],
    access: ['admin'], response: EmailTemplateList,
    async handler({ services, auth }) {
      const db = services.db;
      const custom = await templates.listCustom(db, auth.project.id);
      return { items: EMAIL_TEMPLATE_TYPES.map((type) => view(type, custom.get(type))), is_paginated: false as const };
    },
  }),
  route({
    method: 'GET', path: '/email-templates/:type', summary: 'Get an email template (customised or default)', tags: ['Email templates'],
    access: ['admin'], params: EmailTemplateParams, response: EmailTemplate,
    async handler({ services, auth, params }) {
      const db = services.db;
      return view(params.type, await templates.loadProjectTemplate(db, auth.project.id, params.type));
    },
  }),
  route({
    method: 'PATCH', path: '/email-templates/:type', summary: 'Customise an email template (content is {html, text})', tags: ['Email templates'],
    access: ['admin'], params: EmailTemplateParams, body: EmailTemplateUpdate, response: EmailTemplate,
    async handler({ services, auth, params, body, schemaError }) {
      const db = services.db;
      if (body.content === null) throw schemaError('body.content cannot be null');
      const saved = await db.transaction(async (tx) => {
        // The project row lock orders this against a concurrent switch to the shared email config.
        const project = await projects.findForUpdate(tx, auth.project.id);
        if (!project) throw new KnownErrors.ProjectNotFound(auth.project.id);
        if (project.config.email_config.type === 'shared') {
          throw new StatusError(400, 'Cannot update email templates in shared email config. Set up a custom email config to update email templates.');
        }
        if (body.content !== undefined && !Value.Check(EmailTemplateContent, body.content)) throw new StatusError(400, 'Invalid email template content');
        const content = body.content as EmailTemplateContent | undefined;
        return templates.upsert(tx, auth.project.id, params.type, { subject: body.subject, content }, DEFAULT_EMAIL_TEMPLATES[params.type]);
      });
      return view(params.type, saved);
    },
  }),
  route({
    method: 'DELETE', path: '/email-templates/:type', summary: 'Reset an email template to the default', tags: ['Email templates'],
    access: ['admin'], params: EmailTemplateParams, response: Success,
    async handler({ services, auth, params }) {
      const db = services.db;
      if (!(await templates.remove(db, auth.project.id, params.type))) throw new StatusError(404, 'Email template not found');
      return { success: true as const };
    },
  }),
];
