// Sent emails and the test email of the admin API (protocol-resources §12.2, §12.3).
import { Type, type Static } from '@sinclair/typebox';
import { Email, Json, Millis, Nullable, Strict, List } from './common.ts';

/** What the sent-email list shows about the sender: never the password. */
export const SenderConfig = Strict({
  type: Type.Union([Type.Literal('shared'), Type.Literal('standard')]),
  host: Type.String(),
  port: Type.Number(),
  username: Type.String(),
  sender_name: Type.String(),
  sender_email: Type.String(),
});

/** Item of `GET /internal/emails`; `error` is `{rawError, errorType, canRetry, message}` for failed sends. */
export const SentEmail = Strict({
  id: Type.String(),
  to: Type.Array(Type.String()),
  subject: Type.String(),
  sent_at_millis: Millis(),
  error: Nullable(Json()),
  sender_config: SenderConfig,
});
export const SentEmailList = List(SentEmail);

/**
 * `GET /internal/emails/{email_id}` (Gatehouse's own): the entry and what was sent, as recorded: every one-time code
 * and link token replaced by a placeholder. `html` and `text` are null where no copy was recorded.
 */
export const SentEmailDetail = Strict({
  ...SentEmail.properties,
  html: Nullable(Type.String()),
  text: Nullable(Type.String()),
});
export type SentEmailDetail = Static<typeof SentEmailDetail>;
export const EmailIdParams = Strict({ email_id: Type.String() });
export type SentEmail = Static<typeof SentEmail>;

export const SendTestEmailRequest = Strict({
  recipient_email: Email(),
  email_config: Strict({
    host: Type.String(),
    port: Type.Integer({ minimum: 0, maximum: 65535 }),
    username: Type.String(),
    password: Type.String(),
    sender_name: Type.String(),
    sender_email: Email(),
    require_tls: Type.Optional(Type.Boolean()),
  }),
});
export type SendTestEmailRequest = Static<typeof SendTestEmailRequest>;

export const SendTestEmailResponse = Strict({
  success: Type.Boolean(),
  error_message: Type.Optional(Type.String()),
});
