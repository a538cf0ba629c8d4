// Passkey (WebAuthn) endpoints (protocol-auth §3.4). Credentials are WebAuthn JSON, checked by the verifier.
import { Type } from '@sinclair/typebox';
import { Strict } from './common.ts';

const WebAuthnJson = () => Type.Object({}, { additionalProperties: true, description: 'A WebAuthn response in its JSON encoding' });

export const PasskeyOptionsResponse = Strict({ options_json: Type.Object({}, { additionalProperties: true }), code: Type.String() });
export const PasskeyRegisterRequest = Strict({ credential: WebAuthnJson(), code: Type.String() });
export const PasskeyRegisterResponse = Strict({ user_handle: Type.String() });
export const PasskeySignInRequest = Strict({ authentication_response: WebAuthnJson(), code: Type.String() });
