// Building blocks of the wire schemas. Formats (`uuid`, `url`, `email`, `sign-in-email`, `base64`) and the
// `patternMessage` / `emptyMessage` options are understood by the service's validator, which words errors like yup.
import { Type, type TSchema, type TObject, type TProperties } from '@sinclair/typebox';
import { DISPLAY_NAME_MAX_LENGTH } from '../rules/names.ts';

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
export const Uuid = (opts: object = {}) => Type.String({ format: 'uuid', ...opts });
/** A user id, or `me` for the signed-in user. */
export const UserIdOrMe = () => Type.String({ description: "A user id (UUID), or 'me' for the current user" });
export const Url = (opts: object = {}) => Type.String({ format: 'url', ...opts });
export const Email = (opts: object = {}) => Type.String({ format: 'email', ...opts });
/** The stricter email form used by sign-up and sign-in-code requests. */
export const SignInEmail = () => Type.String({ format: 'sign-in-email' });
export const Base64 = () => Type.String({ format: 'base64' });
/** Any JSON value (metadata fields). */
export const Json = () => Type.Unknown({ description: 'Any JSON value' });
/**
 * A metadata field of a request: any JSON value without the keys `__proto__`, `constructor` or `prototype` at any depth
 * (ASVS 5.1.3: a reader that merges metadata into an object must not reach a prototype). `refuseReservedKeys` is read by
 * the service's validator.
 */
export const MetadataInput = () => Type.Unknown({ description: 'Any JSON value (no __proto__, constructor or prototype keys)', refuseReservedKeys: true });
/** A string of exactly 45 characters (verification codes, refresh tokens). */
export const Code45 = () => Type.String({ minLength: 45, maxLength: 45 });
export const NonEmptyString = (opts: object = {}) => Type.String({ minLength: 1, emptyMessage: 'must not be empty', ...opts });
/**
 * Upper bounds of free-text request fields: roomy for people, too small to carry megabytes (one 10 MB display name
 * made every read of its user slow). Response schemas stay unbounded (values stored before the bounds still read).
 */
export const MAX_NAME_LENGTH = 1_000;
export const MAX_DESCRIPTION_LENGTH = 10_000;
/** A display name, sender name, host, id or similar short text of a request. */
export const NameText = (opts: object = {}) => Type.String({ maxLength: MAX_NAME_LENGTH, ...opts });
/**
 * A user's, a team's or a member's display name: at most DISPLAY_NAME_MAX_LENGTH (shared/src/rules/names.ts), and no
 * control or bidirectional override characters (ASVS 5.2.2; `safeText`, read by the service's validator).
 */
export const DisplayNameText = (opts: object = {}) => Type.String({ maxLength: DISPLAY_NAME_MAX_LENGTH, safeText: true, ...opts });
/** A description of a request. */
export const DescriptionText = (opts: object = {}) => Type.String({ maxLength: MAX_DESCRIPTION_LENGTH, ...opts });
export const Millis = () => Type.Number({ description: 'Milliseconds since the Unix epoch' });

/** A strict object: unknown properties are rejected ("contains unknown properties"). */
export const Strict = <P extends TProperties>(properties: P, opts: object = {}): TObject<P> =>
  Type.Object(properties, { additionalProperties: false, ...opts });

export const Success = Strict({ success: Type.Literal(true) });

export const List = <T extends TSchema>(item: T) => Strict({ items: Type.Array(item), is_paginated: Type.Literal(false) });
export const PaginatedList = <T extends TSchema>(item: T) => Strict({
  items: Type.Array(item),
  is_paginated: Type.Literal(true),
  pagination: Strict({ next_cursor: Nullable(Type.String()) }),
});

export const AccessType = Type.Union([Type.Literal('client'), Type.Literal('server'), Type.Literal('admin')]);

/** An empty object: no query parameters, or an answer with nothing to say. */
export const Empty = Strict({});
/** A body that may be omitted or `{}` and nothing else. */
export const OptionalEmptyBody = Type.Optional(Empty);
