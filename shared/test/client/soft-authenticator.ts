// A software WebAuthn authenticator (ES256, "none" attestation) standing in for the browser ceremonies, so passkey
// registration and sign-in can run against the real service without a browser.
import { base64UrlDecode, base64UrlEncode } from '../../src/rules/base64.ts';
import type { WebAuthnCeremonies } from '../../src/client/index.ts';

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor>;

function head(major: number, n: number): number[] {
  if (n < 24) return [(major << 5) | n];
  if (n < 256) return [(major << 5) | 24, n];
  if (n < 65536) return [(major << 5) | 25, n >> 8, n & 255];
  return [(major << 5) | 26, (n >>> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function cbor(v: Cbor): number[] {
  if (typeof v === 'number') return v >= 0 ? head(0, v) : head(1, -1 - v);
  if (typeof v === 'string') {
    const b = new TextEncoder().encode(v);
    return [...head(3, b.length), ...b];
  }
  if (v instanceof Uint8Array) return [...head(2, v.length), ...v];
  if (Array.isArray(v)) return [...head(4, v.length), ...v.flatMap(cbor)];
  return [...head(5, v.size), ...[...v].flatMap(([k, x]) => [...cbor(k), ...cbor(x)])];
}

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};
const sha256 = async (data: Uint8Array) => new Uint8Array(await crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>));
const u32 = (n: number) => new Uint8Array([(n >>> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255]);

/** Raw r||s (64 bytes) → ASN.1 DER, as WebAuthn carries ES256 signatures. */
function derSignature(raw: Uint8Array): Uint8Array {
  const int = (b: Uint8Array) => {
    let i = 0;
    while (i < b.length - 1 && b[i] === 0) i++;
    let v = b.slice(i);
    if (v[0]! & 0x80) v = concat(new Uint8Array([0]), v);
    return concat(new Uint8Array([0x02, v.length]), v);
  };
  const body = concat(int(raw.slice(0, 32)), int(raw.slice(32)));
  return concat(new Uint8Array([0x30, body.length]), body);
}

export interface SoftAuthenticator extends WebAuthnCeremonies {
  credentialId: string | undefined;
}

export function softAuthenticator(origin: string): SoftAuthenticator {
  let keys: CryptoKeyPair | undefined;
  let credId: Uint8Array | undefined;
  let userHandle: string | undefined;
  let counter = 0;
  const clientData = (type: string, challenge: string) =>
    new TextEncoder().encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  return {
    get credentialId() {
      return credId ? base64UrlEncode(credId) : undefined;
    },
    async startRegistration({ optionsJSON }) {
      keys = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
      credId = crypto.getRandomValues(new Uint8Array(16));
      userHandle = optionsJSON.user?.id;
      const jwk = await crypto.subtle.exportKey('jwk', keys.publicKey);
      const cose = new Uint8Array(cbor(new Map<Cbor, Cbor>([[1, 2], [3, -7], [-1, 1], [-2, base64UrlDecode(jwk.x!)], [-3, base64UrlDecode(jwk.y!)]])));
      const authData = concat(
        await sha256(new TextEncoder().encode(optionsJSON.rp.id)),
        new Uint8Array([0x45]), // user present, user verified, attested credential data
        u32(counter),
        new Uint8Array(16), // AAGUID
        new Uint8Array([0, credId.length]),
        credId,
        cose,
      );
      const attestationObject = new Uint8Array(cbor(new Map<Cbor, Cbor>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]])));
      const id = base64UrlEncode(credId);
      return {
        id,
        rawId: id,
        type: 'public-key',
        response: {
          clientDataJSON: base64UrlEncode(clientData('webauthn.create', optionsJSON.challenge)),
          attestationObject: base64UrlEncode(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
    async startAuthentication({ optionsJSON }) {
      if (!keys || !credId) throw new Error('no credential registered');
      counter++;
      const authData = concat(await sha256(new TextEncoder().encode(optionsJSON.rpId)), new Uint8Array([0x05]), u32(counter));
      const cd = clientData('webauthn.get', optionsJSON.challenge);
      const raw = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, concat(authData, await sha256(cd))));
      const id = base64UrlEncode(credId);
      return {
        id,
        rawId: id,
        type: 'public-key',
        response: {
          clientDataJSON: base64UrlEncode(cd),
          authenticatorData: base64UrlEncode(authData),
          signature: base64UrlEncode(derSignature(raw)),
          userHandle,
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
  };
}
