// `/internal/signing-keys` (issue 29; the internal project's admins only): the service's access-token signing key
// records. A record's `id` begins the `kid` of every project's key it derives ("<id>.<fingerprint>"); the record of a
// database upgraded from keys derived from the server secret is `legacy`, its kids the fingerprint alone.
import { Type, type Static } from '@sinclair/typebox';
import { List, Nullable, Strict } from './common.ts';

export const SigningKeyState = Type.Union([Type.Literal('next'), Type.Literal('current'), Type.Literal('previous'), Type.Literal('retired')]);

export const SigningKey = Strict({
  id: Type.String(),
  /** next: published, not yet signing; current: signs; previous: still verifies; retired: refused. */
  state: SigningKeyState,
  algorithm: Type.Literal('ES256'),
  created_at_millis: Type.Integer(),
  /** When it became current (null: never yet). */
  activated_at_millis: Nullable(Type.Integer()),
  /** When it became previous. */
  deactivated_at_millis: Nullable(Type.Integer()),
  retired_at_millis: Nullable(Type.Integer()),
});
export type SigningKey = Static<typeof SigningKey>;

/** Every record, newest first (GET, and POST .../rotate after the rotation). */
export const SigningKeyList = List(SigningKey);
export type SigningKeyList = Static<typeof SigningKeyList>;
