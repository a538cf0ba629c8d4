// The built-in email templates (magic_link in its two versions) and which magic-link version a client gets.
import type { EmailTemplateSource, EmailTemplateType, MailType } from './render.ts';

const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const P = 'margin:0 0 16px 0;';
const MUTED = 'margin:0 0 16px 0;font-size:14px;color:#6b7280;';

/** Table-based, inline-styled layout: what mail clients render reliably. */
function layout(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
</head>
<body style="margin:0;padding:0;background-color:#f4f5f7;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f4f5f7;">
<tr><td align="center" style="padding:32px 16px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background-color:#ffffff;border:1px solid #e3e5e8;border-radius:8px;">
<tr><td style="padding:32px 40px;font-family:${FONT};font-size:16px;line-height:1.5;color:#1f2328;">
${body}
</td></tr>
</table>
<p style="margin:16px 0 0 0;font-family:${FONT};font-size:12px;color:#9ca3af;">Sent by {{ projectDisplayName }}</p>
</td></tr>
</table>
</body>
</html>
`;
}

const heading = (text: string) => `<h1 style="margin:0 0 24px 0;font-size:22px;line-height:1.3;font-weight:600;">${text}</h1>`;
const greeting = `<p style="${P}">{{#if userDisplayName}}Hi {{ userDisplayName }},{{else}}Hi,{{/if}}</p>`;
const textGreeting = '{{#if userDisplayName}}Hi {{ userDisplayName }},{{else}}Hi,{{/if}}';

function button(linkVar: string, label: string): string {
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px 0;">
<tr><td style="border-radius:6px;background-color:#2563eb;">
<a href="{{ ${linkVar} }}" style="display:inline-block;padding:12px 24px;font-family:${FONT};font-size:16px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:6px;">${label}</a>
</td></tr>
</table>`;
}

function linkFallback(linkVar: string): string {
  return `<p style="${MUTED}">If the button doesn't work, copy this link into your browser:<br>
<a href="{{ ${linkVar} }}" style="color:#2563eb;word-break:break-all;">{{ ${linkVar} }}</a></p>`;
}

const emailVerification: EmailTemplateSource = {
  subject: 'Verify your email at {{ projectDisplayName }}',
  content: {
    html: layout(
      'Verify your email',
      [
        heading('Verify your email'),
        greeting,
        `<p style="${P}">Please confirm your email address for {{ projectDisplayName }}.</p>`,
        button('emailVerificationLink', 'Verify email'),
        linkFallback('emailVerificationLink'),
        `<p style="${MUTED}">If you didn't create an account with {{ projectDisplayName }}, you can ignore this email.</p>`,
      ].join('\n'),
    ),
    text: `${textGreeting}

Please confirm your email address for {{ projectDisplayName }} by opening this link:

{{ emailVerificationLink }}

If you didn't create an account with {{ projectDisplayName }}, you can ignore this email.
`,
  },
};

const passwordReset: EmailTemplateSource = {
  subject: 'Reset your password at {{ projectDisplayName }}',
  content: {
    html: layout(
      'Reset your password',
      [
        heading('Reset your password'),
        greeting,
        `<p style="${P}">We received a request to reset the password of your {{ projectDisplayName }} account.</p>`,
        button('passwordResetLink', 'Choose a new password'),
        linkFallback('passwordResetLink'),
        `<p style="${MUTED}">If you didn't ask for this, you can ignore this email; your password stays the same.</p>`,
      ].join('\n'),
    ),
    text: `${textGreeting}

We received a request to reset the password of your {{ projectDisplayName }} account. To choose a new password, open this link:

{{ passwordResetLink }}

If you didn't ask for this, you can ignore this email; your password stays the same.
`,
  },
};

const ignoreSignIn = `<p style="${MUTED}">If you didn't try to sign in to {{ projectDisplayName }}, you can ignore this email.</p>`;

/** Version 2 (current): link and one-time code. */
const magicLink: EmailTemplateSource = {
  subject: 'Sign in to {{ projectDisplayName }}: Your code is {{ otp }}',
  content: {
    html: layout(
      'Sign in',
      [
        heading('Sign in to {{ projectDisplayName }}'),
        greeting,
        `<p style="${P}">Enter this code to sign in:</p>`,
        `<p style="margin:0 0 24px 0;font-family:'SFMono-Regular',Menlo,Consolas,monospace;font-size:28px;font-weight:700;letter-spacing:6px;">{{ otp }}</p>`,
        `<p style="${P}">Or sign in directly with this button:</p>`,
        button('magicLink', 'Sign in'),
        linkFallback('magicLink'),
        ignoreSignIn,
      ].join('\n'),
    ),
    text: `${textGreeting}

Enter this code to sign in to {{ projectDisplayName }}:

{{ otp }}

Or sign in directly with this link:

{{ magicLink }}

If you didn't try to sign in to {{ projectDisplayName }}, you can ignore this email.
`,
  },
};

/** Version 1: link only, for SDKs (`@stackframe/stack` ≤ 2.5.37) that cannot take a code. */
export const MAGIC_LINK_TEMPLATE_V1: EmailTemplateSource = deepFreeze({
  subject: 'Sign in to {{ projectDisplayName }}',
  content: {
    html: layout(
      'Sign in',
      [
        heading('Sign in to {{ projectDisplayName }}'),
        greeting,
        `<p style="${P}">Use this button to sign in:</p>`,
        button('magicLink', 'Sign in'),
        linkFallback('magicLink'),
        ignoreSignIn,
      ].join('\n'),
    ),
    text: `${textGreeting}

Open this link to sign in to {{ projectDisplayName }}:

{{ magicLink }}

If you didn't try to sign in to {{ projectDisplayName }}, you can ignore this email.
`,
  },
});

const teamInvitation: EmailTemplateSource = {
  subject: 'You have been invited to join {{ teamDisplayName }}',
  content: {
    html: layout(
      'Team invitation',
      [
        heading('Join {{ teamDisplayName }}'),
        greeting,
        `<p style="${P}">You have been invited to join the team <strong>{{ teamDisplayName }}</strong> on {{ projectDisplayName }}.</p>`,
        button('teamInvitationLink', 'Accept invitation'),
        linkFallback('teamInvitationLink'),
        `<p style="${MUTED}">If you weren't expecting this invitation, you can ignore this email.</p>`,
      ].join('\n'),
    ),
    text: `${textGreeting}

You have been invited to join the team {{ teamDisplayName }} on {{ projectDisplayName }}. To accept the invitation, open this link:

{{ teamInvitationLink }}

If you weren't expecting this invitation, you can ignore this email.
`,
  },
};

/** Gatehouse's own mail (render.ts: ServiceMailVariablesByType), not customisable per project. */
export const PROJECT_OWNER_INVITATION_TEMPLATE: EmailTemplateSource = deepFreeze({
  subject: 'You have been invited to own {{ ownedProjectDisplayName }}',
  content: {
    html: layout(
      'Project invitation',
      [
        heading('Own {{ ownedProjectDisplayName }} with {{#if inviterName}}{{ inviterName }}{{else}}its owners{{/if}}'),
        `<p style="${P}">{{#if inviterName}}{{ inviterName }} has invited you{{else}}You have been invited{{/if}} to become an owner of the project <strong>{{ ownedProjectDisplayName }}</strong> in {{ projectDisplayName }}. Owners can change all of its settings and see its users.</p>`,
        `<p style="${P}">Sign in, or create an account, then accept the invitation.</p>`,
        button('ownerInvitationLink', 'Accept invitation'),
        linkFallback('ownerInvitationLink'),
        `<p style="${MUTED}">If you weren't expecting this invitation, you can ignore this email.</p>`,
      ].join('\n'),
    ),
    text: `{{#if inviterName}}{{ inviterName }} has invited you{{else}}You have been invited{{/if}} to become an owner of the project {{ ownedProjectDisplayName }} in {{ projectDisplayName }}. Owners can change all of its settings and see its users.

Sign in, or create an account, then accept the invitation:

{{ ownerInvitationLink }}

If you weren't expecting this invitation, you can ignore this email.
`,
  },
});

const NOT_YOU = `If this wasn't you, reset your password now and contact the support of {{ projectDisplayName }}: someone else may have access to your account.`;

/** A security notification: what changed on the account, and what to do if it was not the account's owner. */
function notice(subject: string, title: string, what: string): EmailTemplateSource {
  return {
    subject,
    content: {
      html: layout(title, [
        heading(title),
        greeting,
        `<p style="${P}">${what}</p>`,
        `<p style="${P}">If this was you, there is nothing to do.</p>`,
        `<p style="${MUTED}">${NOT_YOU}</p>`,
      ].join('\n')),
      text: `${textGreeting}

${what}

If this was you, there is nothing to do.

${NOT_YOU}
`,
    },
  };
}

const passwordChanged = notice('Your password at {{ projectDisplayName }} was changed', 'Your password was changed',
  'The password of your {{ projectDisplayName }} account was changed or reset.');
const signInEmailAdded = notice('A sign-in email was added to your {{ projectDisplayName }} account', 'Sign-in email added',
  'The address {{ email }} was added to your {{ projectDisplayName }} account as an email you can sign in with.');
const signInEmailRemoved = notice('A sign-in email was removed from your {{ projectDisplayName }} account', 'Sign-in email removed',
  'The address {{ email }} can no longer be used to sign in to your {{ projectDisplayName }} account.');
const mfaDisabled = notice('Two-factor authentication was turned off at {{ projectDisplayName }}', 'Two-factor authentication turned off',
  'Two-factor authentication (authenticator app codes) was turned off for your {{ projectDisplayName }} account.');
const passkeyAdded = notice('A passkey was added to your {{ projectDisplayName }} account', 'Passkey added',
  'A passkey was registered for your {{ projectDisplayName }} account; it can now be used to sign in.');
const passkeyRemoved = notice('A passkey was removed from your {{ projectDisplayName }} account', 'Passkey removed',
  'The passkey of your {{ projectDisplayName }} account was removed; it can no longer be used to sign in.');
const mfaEnabled = notice('Two-factor authentication was turned on at {{ projectDisplayName }}', 'Two-factor authentication turned on',
  'Two-factor authentication (authenticator app codes) was turned on for your {{ projectDisplayName }} account, or its authenticator app was replaced.');
const otpDisabled = notice('Sign-in codes were turned off at {{ projectDisplayName }}', 'Sign-in codes turned off',
  'Signing in with a code sent by email was turned off for your {{ projectDisplayName }} account.');
const newDeviceSignIn = notice('New sign-in to your {{ projectDisplayName }} account', 'New sign-in from another device',
  'Your {{ projectDisplayName }} account was signed in to from a device it had not been used on before: {{ device }} (IP address {{ ipAddress }}).');

function deepFreeze<T extends EmailTemplateSource>(t: T): T {
  Object.freeze(t.content);
  return Object.freeze(t);
}

/** Built-in defaults (magic_link = version 2). */
export const DEFAULT_EMAIL_TEMPLATES: Readonly<Record<EmailTemplateType, EmailTemplateSource>> = Object.freeze({
  email_verification: deepFreeze(emailVerification),
  password_reset: deepFreeze(passwordReset),
  magic_link: deepFreeze(magicLink),
  team_invitation: deepFreeze(teamInvitation),
  password_changed: deepFreeze(passwordChanged),
  sign_in_email_added: deepFreeze(signInEmailAdded),
  sign_in_email_removed: deepFreeze(signInEmailRemoved),
  mfa_disabled: deepFreeze(mfaDisabled),
  passkey_added: deepFreeze(passkeyAdded),
  passkey_removed: deepFreeze(passkeyRemoved),
  mfa_enabled: deepFreeze(mfaEnabled),
  otp_disabled: deepFreeze(otpDisabled),
  new_device_sign_in: deepFreeze(newDeviceSignIn),
});

export function getDefaultEmailTemplate(type: EmailTemplateType, opts: { magicLinkVersion?: 1 | 2 } = {}): EmailTemplateSource {
  if (type === 'magic_link' && opts.magicLinkVersion === 1) return MAGIC_LINK_TEMPLATE_V1;
  return DEFAULT_EMAIL_TEMPLATES[type];
}

/** The built-in template of any mail: a project's template type, or one of Gatehouse's own mails. */
export function defaultMailTemplate(type: MailType, opts: { magicLinkVersion?: 1 | 2 } = {}): EmailTemplateSource {
  return type === 'project_owner_invitation' ? PROJECT_OWNER_INVITATION_TEMPLATE : getDefaultEmailTemplate(type, opts);
}

/**
 * Magic-link default version for an `x-stack-client-version` header (protocol-auth §3.2 step 3):
 * 1 for `@stackframe/stack` ≤ 2.5.37, else 2 (also when the header is missing or does not parse).
 */
export function magicLinkTemplateVersion(clientVersionHeader: string | null | undefined): 1 | 2 {
  const m = /^\w+\s+(@[\w/]+)@(\d+(?:\.\d+)*)$/.exec(clientVersionHeader?.trim() ?? '');
  if (!m || m[1] !== '@stackframe/stack') return 2;
  const [major = 0, minor = 0, patch = 0] = m[2]!.split('.').map(Number);
  const le = major !== 2 ? major < 2 : minor !== 5 ? minor < 5 : patch <= 37;
  return le ? 1 : 2;
}
