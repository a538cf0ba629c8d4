// Client-only constants. Protocol and business constants come from ../constants.ts (client-library §9).
export * from '../constants.ts';

/** Used when neither the `baseUrl` option nor an environment variable gives one (a locally run service). */
export const DEFAULT_BASE_URL = 'http://localhost:8102';
/** `x-stack-client-version`; must match `<word> @<scope>/<name>@<digits.dots>` for the server to parse it. */
export const CLIENT_VERSION_HEADER = 'js @gatehouse/client@0.1.0';

export const PERSISTENT_TOKEN_STORE_ERROR =
  'Cannot call this function on a Stack app without a persistent token store. Make sure the tokenStore option on the constructor is set to a non-null value when initializing Stack.\n\n' +
  "Stack uses token stores to access access tokens of the current user. For example, on web frontends it is commonly the string value 'cookies' for cookie storage.";
