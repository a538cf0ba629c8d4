// The one known-error catalogue (protocol-auth.md §1.8, §7). Used by the service to throw and render,
// and by the client library to decode `{code, details?, error}` bodies into typed errors.
import type { KnownErrorFamily } from './known-errors/base.ts';
import * as catalogue from './known-errors/catalogue.ts';
import * as operational from './known-errors/operational.ts';
import * as teamEnterprise from './known-errors/team-enterprise.ts';

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
export const KnownErrors = { ...catalogue, ...operational, ...teamEnterprise };

export type KnownErrorName = keyof typeof KnownErrors;
/** Constructor arguments of a catalogue class, e.g. `KnownErrorArgs<'TeamMembershipNotFound'>` = [teamId, userId]. */
export type KnownErrorArgs<N extends KnownErrorName> = ConstructorParameters<(typeof KnownErrors)[N]>;
/** Instance type of a catalogue class, e.g. `KnownErrorOf<'MultiFactorAuthenticationRequired'>`. */
export type KnownErrorOf<N extends KnownErrorName> = InstanceType<(typeof KnownErrors)[N]>;
/** As in Stack's SDK, `KnownErrors["EmailPasswordMismatch"]` is also a type: an error of that class. */
export type KnownErrors = { [N in KnownErrorName]: KnownErrorOf<N> };
/** Every catalogue error whose class is in the family, e.g. the codes of `PASSWORD_REQUIREMENTS_NOT_MET`. */
export type KnownErrorInFamily<F extends KnownErrorFamily> = {
  [N in KnownErrorName]: F extends (typeof KnownErrors)[N]['families'][number] ? KnownErrorOf<N> : never;
}[KnownErrorName];
