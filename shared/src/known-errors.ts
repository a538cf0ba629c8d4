// The one known-error catalogue (protocol-auth.md §1.8, §7). Used by the service to throw and render,
// and by the client library to decode `{code, details?, error}` bodies into typed errors.
import * as catalogue from './known-errors/catalogue.ts';
import * as operational from './known-errors/operational.ts';

export {
  KnownError,
  StatusError,
  isKnownErrorInFamily,
  knownErrorByCode,
  type KnownErrorClass,
  type KnownErrorFamily,
  type KnownErrorJson,
} from './known-errors/base.ts';

/** All catalogue classes, named after the PascalCase of their code (the names Stack's SDK uses). */
export const KnownErrors = { ...catalogue, ...operational };

export type KnownErrorName = keyof typeof KnownErrors;
/** Constructor arguments of a catalogue class, e.g. `KnownErrorArgs<'TeamMembershipNotFound'>` = [teamId, userId]. */
export type KnownErrorArgs<N extends KnownErrorName> = ConstructorParameters<(typeof KnownErrors)[N]>;
/** Instance type of a catalogue class, e.g. `KnownErrorOf<'MultiFactorAuthenticationRequired'>`. */
export type KnownErrorOf<N extends KnownErrorName> = InstanceType<(typeof KnownErrors)[N]>;
