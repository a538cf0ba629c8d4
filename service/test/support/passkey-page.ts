// Browser side of the passkey tests: bundled with Bun.build and served on a localhost page. It talks to the
// service like the SDK does: fetch the options, check and replace the relying-party placeholder with the page's
// hostname, and run the WebAuthn ceremony through @simplewebauthn/browser (which JSON-encodes the result).
import { startAuthentication, startRegistration } from '@simplewebauthn/browser';

const PLACEHOLDER = 'THIS_VALUE_WILL_BE_REPLACED.example.com';

async function initiate(apiUrl: string, path: string, headers: Record<string, string>) {
  const res = await fetch(`${apiUrl}/api/v1${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(body)}`);
  return body as { code: string; options_json: any };
}

async function register(apiUrl: string, headers: Record<string, string>) {
  const init = await initiate(apiUrl, '/auth/passkey/initiate-passkey-registration', headers);
  if (init.options_json.rp.id !== PLACEHOLDER) throw new Error(`unexpected rp.id ${init.options_json.rp.id}`);
  const optionsJSON = { ...init.options_json, rp: { ...init.options_json.rp, id: location.hostname } };
  const credential = await startRegistration({ optionsJSON });
  return { code: init.code, options: init.options_json, credential };
}

async function authenticate(apiUrl: string, headers: Record<string, string>) {
  const init = await initiate(apiUrl, '/auth/passkey/initiate-passkey-authentication', headers);
  if (init.options_json.rpId !== PLACEHOLDER) throw new Error(`unexpected rpId ${init.options_json.rpId}`);
  const response = await startAuthentication({ optionsJSON: { ...init.options_json, rpId: location.hostname } });
  return { code: init.code, options: init.options_json, response };
}

(globalThis as any).passkeyPage = { register, authenticate };
