import { Type, type Static } from '@sinclair/typebox';
import { List } from './common.ts';

/**
 * The email template types, in the order `GET /email-templates` lists them: the protocol's four
 * (protocol-resources §12.1), then Gatehouse's security notifications to the account's verified addresses.
 */
export const EMAIL_TEMPLATE_TYPES = [
  'email_verification', 'password_reset', 'magic_link', 'team_invitation',
  'password_changed', 'sign_in_email_added', 'sign_in_email_removed', 'mfa_disabled', 'passkey_added', 'passkey_removed',
  'mfa_enabled', 'otp_disabled', 'new_device_sign_in',
] as const;
export const EmailTemplateType = Type.Union([
  Type.Literal('email_verification'),
  Type.Literal('password_reset'),
  Type.Literal('magic_link'),
  Type.Literal('team_invitation'),
  Type.Literal('password_changed'),
  Type.Literal('sign_in_email_added'),
  Type.Literal('sign_in_email_removed'),
  Type.Literal('mfa_disabled'),
  Type.Literal('passkey_added'),
  Type.Literal('passkey_removed'),
  Type.Literal('mfa_enabled'),
  Type.Literal('otp_disabled'),
  Type.Literal('new_device_sign_in'),
]);
export type EmailTemplateType = Static<typeof EmailTemplateType>;

/**
 * Template `content` as Gatehouse stores and serves it.
 *
 * Stack Auth's content is an email-editor block document; Gatehouse uses its own, simpler model instead:
 * a JSON object with exactly two strings,
 *   - `html`: the HTML body,
 *   - `text`: the plain-text alternative.
 * Both may contain Handlebars-style `{{ variable }}` placeholders and `{{#if variable}}…{{else}}…{{/if}}`
 * sections. When rendered, values are HTML-escaped inside `html` and inserted as-is inside `text`.
 * Anything else (extra keys, non-string values) is rejected as `Invalid email template content`.
 */
export const EmailTemplateContent = Type.Object(
  {
    html: Type.String({ maxLength: 200_000 }),
    text: Type.String({ maxLength: 100_000 }),
  },
  { additionalProperties: false },
);
export type EmailTemplateContent = Static<typeof EmailTemplateContent>;

/** Subject line of a template; a single line (line breaks are removed when rendering). */
export const EmailTemplateSubject = Type.String({ maxLength: 1_000 });

/** Email template object of the admin API: `{ content, is_default, subject, type }`. */
export const EmailTemplate = Type.Object(
  {
    content: EmailTemplateContent,
    is_default: Type.Boolean(),
    subject: EmailTemplateSubject,
    type: EmailTemplateType,
  },
  { additionalProperties: false },
);
export const EmailTemplateList = List(EmailTemplate);
export type EmailTemplate = Static<typeof EmailTemplate>;

/**
 * `PATCH /email-templates/{type}` body. `content` is any non-null JSON at the schema level; the service then
 * checks it against `EmailTemplateContent` and answers 400 `Invalid email template content` (as the protocol does).
 */
export const EmailTemplateUpdate = Type.Object(
  {
    content: Type.Optional(Type.Unknown()),
    subject: Type.Optional(EmailTemplateSubject),
  },
  { additionalProperties: false },
);
export type EmailTemplateUpdate = Static<typeof EmailTemplateUpdate>;

export const EmailTemplateParams = Type.Object({ type: EmailTemplateType }, { additionalProperties: false });
