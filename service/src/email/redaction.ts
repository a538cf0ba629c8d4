// What the outbox records of a templated mail (issue 30 §1): the mail as the recipient received it, rendered once
// more with every secret variable (a one-time code, a link carrying a code) replaced by its placeholder. No stored
// column keeps a live code: the live message exists only, sealed, while the mail is queued (email/outbox.ts).
// The redaction follows the template's variables, not the rendered text, so a customised template that puts a code
// anywhere (its subject, a button, an attribute) is redacted all the same.
import {
  renderTemplate,
  type EmailTemplateSource,
  type MailType,
  type MailVariablesByType,
  type RenderedEmail,
  type TemplateVariables,
} from '@gatehouse/shared/email-templates';

/** What a variable is: shown as it is, or a secret recorded as this placeholder. */
type VariableKind = 'shown' | '[code]' | '[link]';

/**
 * Every variable of every template, classified: the type demands each one (optional ones too), so a variable added to
 * a template's set cannot be forgotten here.
 */
const VARIABLE_KINDS: { [T in MailType]: { [K in keyof MailVariablesByType[T]]-?: VariableKind } } = {
  email_verification: { projectDisplayName: 'shown', userDisplayName: 'shown', emailVerificationLink: '[link]' },
  password_reset: { projectDisplayName: 'shown', userDisplayName: 'shown', passwordResetLink: '[link]' },
  magic_link: { projectDisplayName: 'shown', userDisplayName: 'shown', magicLink: '[link]', otp: '[code]' },
  team_invitation: { projectDisplayName: 'shown', userDisplayName: 'shown', teamDisplayName: 'shown', teamInvitationLink: '[link]' },
  password_changed: { projectDisplayName: 'shown', userDisplayName: 'shown' },
  sign_in_email_added: { projectDisplayName: 'shown', userDisplayName: 'shown', email: 'shown' },
  sign_in_email_removed: { projectDisplayName: 'shown', userDisplayName: 'shown', email: 'shown' },
  mfa_disabled: { projectDisplayName: 'shown', userDisplayName: 'shown' },
  passkey_added: { projectDisplayName: 'shown', userDisplayName: 'shown' },
  passkey_removed: { projectDisplayName: 'shown', userDisplayName: 'shown' },
  mfa_enabled: { projectDisplayName: 'shown', userDisplayName: 'shown' },
  otp_disabled: { projectDisplayName: 'shown', userDisplayName: 'shown' },
  new_device_sign_in: { projectDisplayName: 'shown', userDisplayName: 'shown', device: 'shown', ipAddress: 'shown' },
  project_owner_invitation: { projectDisplayName: 'shown', ownedProjectDisplayName: 'shown', inviterName: 'shown', ownerInvitationLink: '[link]' },
};

/**
 * The variables as recorded: each secret one replaced by its placeholder. A variable the template type does not
 * declare is dropped (a template renders it as '' either way), so nothing unclassified reaches the record.
 */
export function redactedVariables(type: MailType, variables: TemplateVariables): TemplateVariables {
  const kinds = VARIABLE_KINDS[type] as Record<string, VariableKind>;
  const out: Record<string, TemplateVariables[string]> = {};
  for (const [name, kind] of Object.entries(kinds)) {
    if (!Object.hasOwn(variables, name)) continue;
    const value = variables[name];
    // An absent secret stays absent, so `{{#if magicLink}}` sections render as they did for the recipient.
    out[name] = kind === 'shown' || value === null || value === undefined || value === '' ? value : kind;
  }
  return out;
}

/** The mail as sent, and as recorded (codes and link tokens replaced by placeholders). */
export function renderSentAndRecorded(template: EmailTemplateSource, type: MailType, variables: TemplateVariables): { sent: RenderedEmail; recorded: RenderedEmail } {
  return { sent: renderTemplate(template, variables), recorded: renderTemplate(template, redactedVariables(type, variables)) };
}
