// Which methods the sign-in and sign-up screens offer, from the project's config. Pure (unit-tested).
import type { ProjectConfig } from '@gatehouse/shared/client';
import { orderProviders } from './oauth-providers';

export interface AuthMethods {
  oauthProviders: string[];
  passkey: boolean;
  password: boolean;
  magicLink: boolean;
  /** Sign-up screen only: the project takes no new users. */
  signUpDisabled: boolean;
  /** Nothing at all to offer (a misconfigured project). */
  none: boolean;
}

export function authMethods(config: Pick<ProjectConfig, 'credentialEnabled' | 'magicLinkEnabled' | 'passkeyEnabled' | 'signUpEnabled' | 'oauthProviders'>, type: 'sign-in' | 'sign-up'): AuthMethods {
  const signUpDisabled = type === 'sign-up' && !config.signUpEnabled;
  const oauthProviders = signUpDisabled ? [] : orderProviders(config.oauthProviders.map((p) => p.id));
  // A passkey signs in an account that has one; it cannot create an account.
  const passkey = type === 'sign-in' && config.passkeyEnabled;
  const password = !signUpDisabled && config.credentialEnabled;
  const magicLink = !signUpDisabled && config.magicLinkEnabled;
  return { oauthProviders, passkey, password, magicLink, signUpDisabled, none: !signUpDisabled && !oauthProviders.length && !passkey && !password && !magicLink };
}
