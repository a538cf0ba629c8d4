// Template editing: the variables each template may use (with sample values for the live preview) and the
// preview itself, rendered by the renderer the service sends with (@gatehouse/shared/email-templates), so it matches
// the mail that is sent.
import type { EmailTemplateType } from '@gatehouse/shared/schemas/email-templates';
import { EmailTemplateContent, EmailTemplateSubject } from '@gatehouse/shared/schemas/email-templates';
import { renderTemplate, templateSyntaxProblem, type EmailTemplateVariablesByType, type RenderedEmail } from '@gatehouse/shared/email-templates';
import { schemaProblems } from './schema-check';
import { t } from '../messages';

type SampleValues = { [K in EmailTemplateType]: Required<{ [V in keyof EmailTemplateVariablesByType[K]]: string }> };

const base = { projectDisplayName: t('emailTemplates.sample.project'), userDisplayName: t('emailTemplates.sample.user') };
const link = 'https://example.com/handler/link?code=sample';

/** Sample values of every variable a template type receives (the keys are checked against the renderer's types). */
export const TEMPLATE_SAMPLES: SampleValues = {
  email_verification: { ...base, emailVerificationLink: link },
  password_reset: { ...base, passwordResetLink: link },
  magic_link: { ...base, magicLink: link, otp: '123456' },
  team_invitation: { ...base, teamDisplayName: t('emailTemplates.sample.team'), teamInvitationLink: link },
  password_changed: base,
  sign_in_email_added: { ...base, email: 'ada@example.com' },
  sign_in_email_removed: { ...base, email: 'ada@example.com' },
  mfa_disabled: base,
  passkey_added: base,
  passkey_removed: base,
  mfa_enabled: base,
  otp_disabled: base,
  new_device_sign_in: { ...base, device: 'Firefox on Linux', ipAddress: '203.0.113.7' },
};

export function templateVariables(type: EmailTemplateType): string[] {
  return Object.keys(TEMPLATE_SAMPLES[type]);
}

export interface TemplateFormValues {
  subject: string;
  html: string;
  text: string;
}

/**
 * The variables a flow may leave out (typed optional in EmailTemplateVariablesByType: a user without a display name):
 * the preview renders with each of them empty too, as some real mail will be.
 */
export const OPTIONAL_TEMPLATE_VARIABLES = ['userDisplayName'] as const;
export type OptionalTemplateVariable = (typeof OPTIONAL_TEMPLATE_VARIABLES)[number];

/** The mail with the sample values, or with one optional variable empty. */
export function previewTemplate(type: EmailTemplateType, v: TemplateFormValues, empty?: OptionalTemplateVariable): RenderedEmail {
  const values: Record<string, string> = { ...TEMPLATE_SAMPLES[type] };
  if (empty) values[empty] = '';
  return renderTemplate({ subject: v.subject, content: { html: v.html, text: v.text } }, values);
}

/** The template content as stored ({html, text}); anything else in an old template shows as empty. */
export function templateFormValues(t: { subject: string; content: unknown }): TemplateFormValues {
  const c = (t.content ?? {}) as { html?: unknown; text?: unknown };
  return { subject: t.subject, html: typeof c.html === 'string' ? c.html : '', text: typeof c.text === 'string' ? c.text : '' };
}

export function validateTemplate(v: TemplateFormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const p of schemaProblems(EmailTemplateSubject, v.subject)) errors.subject ??= p.text;
  for (const p of schemaProblems(EmailTemplateContent, { html: v.html, text: v.text })) errors[p.path === '/text' ? 'text' : 'html'] ??= p.text;
  if (!v.subject.trim()) errors.subject = t('emailTemplates.subjectRequired');
  // What the service refuses (a tag never closed, unknown or unopened), said before saving, with its line.
  for (const field of ['subject', 'html', 'text'] as const) {
    const problem = templateSyntaxProblem(v[field]);
    if (problem) errors[field] ??= t(`emailTemplates.syntax.${problem.kind}`, { line: problem.line, tag: problem.tag });
  }
  return errors;
}
