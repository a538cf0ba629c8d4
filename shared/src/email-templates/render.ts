/**
 * The email template renderer, shared by the service (the mail it sends) and the console (its live preview), so the
 * preview is the mail. Pure: no Node or Bun API.
 *
 * Content model (ours, not Stack Auth's block document): `content` is `{ html: string, text: string }`,
 * validated by `EmailTemplateContent` in `@gatehouse/shared/schemas/email-templates`. Subject, html and text
 * are Handlebars-style templates supporting exactly two constructs:
 *   - `{{ name }}` (also `{{{ name }}}`): the variable's value; unknown/empty variables render as ''.
 *   - `{{#if name}} … {{else}} … {{/if}}` (nestable, `{{else}}` optional): a section shown when the variable
 *     is a non-empty string / truthy value.
 * Escaping: values are HTML-escaped in `html` (even inside `{{{ }}}`: Stack Auth rendered them raw, which let a
 * user's display name inject markup into mail sent in the project's name); inserted verbatim in `text`; and
 * in the subject with line breaks turned into spaces (a header must stay one line).
 */
import type { EmailTemplateContent, EmailTemplateType } from '../schemas/email-templates.ts';

export type { EmailTemplateContent, EmailTemplateType };

export type EmailTemplateSource = { subject: string; content: EmailTemplateContent };
export type RenderedEmail = { subject: string; html: string; text: string };
export type TemplateValue = string | number | boolean | null | undefined;
export type TemplateVariables = Readonly<Record<string, TemplateValue>>;

/** Variables each flow supplies (protocol-auth §5.1); `projectDisplayName` is always present. */
export type EmailTemplateVariablesByType = {
  email_verification: { projectDisplayName: string; userDisplayName?: string | null; emailVerificationLink: string };
  password_reset: { projectDisplayName: string; userDisplayName?: string | null; passwordResetLink: string };
  magic_link: { projectDisplayName: string; userDisplayName?: string | null; magicLink: string; otp: string };
  team_invitation: {
    projectDisplayName: string;
    userDisplayName?: string | null;
    teamDisplayName: string;
    teamInvitationLink: string;
  };
  // Security notifications (no link: a notice must not be a phishing template); `email` is the address concerned.
  password_changed: NoticeVariables;
  sign_in_email_added: NoticeVariables & { email: string };
  sign_in_email_removed: NoticeVariables & { email: string };
  mfa_disabled: NoticeVariables;
  passkey_added: NoticeVariables;
  passkey_removed: NoticeVariables;
  mfa_enabled: NoticeVariables;
  otp_disabled: NoticeVariables;
  /** `device`: the browser and system the user agent names; `ipAddress`: where the sign-in came from. */
  new_device_sign_in: NoticeVariables & { device: string; ipAddress: string };
};
type NoticeVariables = { projectDisplayName: string; userDisplayName?: string | null };

/**
 * Gatehouse's own mails, sent by the internal project (`projectDisplayName` is the console's name) with a built-in
 * template: not a type of GET /email-templates, whose list every project's owners see and edit.
 */
export type ServiceMailVariablesByType = {
  /** An invitation to co-own a project (issue 26); `inviterName`: the owner who sent it, when known. */
  project_owner_invitation: { projectDisplayName: string; ownedProjectDisplayName: string; inviterName?: string | null; ownerInvitationLink: string };
};
/** Every mail rendered from a template: the projects' template types and Gatehouse's own. */
export type MailType = EmailTemplateType | keyof ServiceMailVariablesByType;
export type MailVariablesByType = EmailTemplateVariablesByType & ServiceMailVariablesByType;

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  // Enough for text and for double/single-quoted attributes, the only places our templates put values.
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

function valueToString(value: TemplateValue): string {
  if (value === null || value === undefined || value === false) return '';
  return String(value);
}

function isTruthy(value: TemplateValue): boolean {
  return value !== null && value !== undefined && value !== false && value !== '' && value !== 0;
}

// An innermost `{{#if}}` section: its body contains no further `{{#if`.
const IF_SECTION = /\{\{#if\s+([A-Za-z_][\w]*)\s*\}\}((?:(?!\{\{#if[\s}])[\s\S])*?)\{\{\/if\s*\}\}/g;
const ELSE_TAG = /\{\{else\s*\}\}/;
const VARIABLE = /\{\{\{?\s*([A-Za-z_][\w]*)\s*\}?\}\}/g;

function lookup(variables: TemplateVariables, name: string): TemplateValue {
  return Object.prototype.hasOwnProperty.call(variables, name) ? variables[name] : undefined;
}

function renderPart(source: string, variables: TemplateVariables, encode: (value: string) => string): string {
  let out = source;
  // Resolve sections innermost-first so nested ones work; bounded in case of pathological input.
  for (let i = 0; i < 100; i++) {
    const next = out.replace(IF_SECTION, (_m, name: string, body: string) => {
      const [yes, no = ''] = body.split(ELSE_TAG, 2);
      return isTruthy(lookup(variables, name)) ? yes! : no;
    });
    if (next === out) break;
    out = next;
  }
  return out.replace(VARIABLE, (_m, name: string) => encode(valueToString(lookup(variables, name))));
}

const toSingleLine = (value: string) => value.replace(/[\r\n]+/g, ' ');

export function renderTemplate(template: EmailTemplateSource, variables: TemplateVariables): RenderedEmail {
  return {
    subject: toSingleLine(renderPart(template.subject, variables, toSingleLine)).trim(),
    html: renderPart(template.content.html, variables, escapeHtml),
    text: renderPart(template.content.text, variables, (v) => v),
  };
}
