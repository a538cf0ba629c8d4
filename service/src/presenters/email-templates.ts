// An email template as the admin API shows it (protocol-resources §12.1).
import type { EmailTemplate, EmailTemplateContent, EmailTemplateType } from '@gatehouse/shared/schemas/email-templates';

/** A template the project sends (email/custom-templates.ts `ProjectTemplate`). */
interface ProjectTemplate { type: EmailTemplateType; subject: string; content: EmailTemplateContent; isDefault: boolean }

export function emailTemplateView(t: ProjectTemplate): EmailTemplate {
  return { type: t.type, subject: t.subject, content: { html: t.content.html, text: t.content.text }, is_default: t.isDefault };
}
