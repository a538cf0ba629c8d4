// A SAML connection's service provider, on node-saml (with xml-crypto for the signatures): the AuthnRequest
// (HTTP-Redirect), the SP metadata, and the response's checks: a valid signature of the IdP's certificate on the
// response or the assertion, a single assertion (a wrapped one is refused), the IdP's issuer, the audience (our
// entity id), the recipient (our ACS), NotBefore / NotOnOrAfter with two minutes of clock skew, and InResponseTo of
// the request this flow sent (or none, for IdP-initiated sign-in where the connection allows it).
import { randomBytes } from 'node:crypto';
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import type { SamlSettings } from './settings';
import { spEndpoints } from './settings';

export const SAML_CLOCK_SKEW_MS = 2 * 60_000;

/** node-saml keeps request ids in a cache; here the one id a flow may answer is known from its stored state. */
function expectedRequest(requestId: string | null): CacheProvider {
  return {
    saveAsync: async (key, value) => ({ value, createdAt: Date.now(), key } as never),
    // node-saml reads the value as the time the request was made; the flow's own expiry is checked by its state row.
    getAsync: async (key) => (requestId !== null && key === requestId ? new Date().toISOString() : null),
    removeAsync: async (key) => key,
  };
}

function samlFor(publicUrl: string, connectionId: string, settings: SamlSettings, o: { requestId: string | null; newRequestId?: string }): SAML {
  const sp = spEndpoints(publicUrl, connectionId);
  return new SAML({
    callbackUrl: sp.acsUrl,
    issuer: sp.entityId,
    audience: sp.entityId,
    entryPoint: settings.idpSsoUrl,
    idpIssuer: settings.idpEntityId,
    idpCert: settings.idpCertificates,
    // Either signature will do (the response's or the assertion's): node-saml then requires the one present.
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    validateInResponseTo: o.requestId === null ? ValidateInResponseTo.never : ValidateInResponseTo.always,
    cacheProvider: expectedRequest(o.requestId),
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    generateUniqueId: () => o.newRequestId ?? `_${randomBytes(20).toString('hex')}`,
  });
}

/** The IdP's sign-in URL carrying a new AuthnRequest, and that request's id (kept with the flow). */
export async function samlAuthorizeUrl(publicUrl: string, connectionId: string, settings: SamlSettings, relayState: string): Promise<{ location: string; requestId: string }> {
  const requestId = `_${randomBytes(20).toString('hex')}`;
  const saml = samlFor(publicUrl, connectionId, settings, { requestId: null, newRequestId: requestId });
  const location = await saml.getAuthorizeUrlAsync(relayState, undefined, {});
  return { location, requestId };
}

export function spMetadataXml(publicUrl: string, connectionId: string, settings: SamlSettings): string {
  return samlFor(publicUrl, connectionId, settings, { requestId: null }).generateServiceProviderMetadata(null, null);
}

/** The response's InResponseTo, read before validation to find which flow it answers (null when absent). */
export { Profile };

/**
 * Validates a posted SAMLResponse. `requestId`: the AuthnRequest this flow sent (null: IdP-initiated, which then
 * must carry no InResponseTo). Throws node-saml's error (its message names the failed check) when any check fails.
 */
export async function validateSamlResponse(publicUrl: string, connectionId: string, settings: SamlSettings, samlResponse: string, requestId: string | null): Promise<Profile> {
  const saml = samlFor(publicUrl, connectionId, settings, { requestId });
  const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse });
  if (!profile) throw new Error('the response carries no assertion.');
  if (requestId === null && typeof profile.inResponseTo === 'string') throw new Error('an IdP-initiated response may not answer a request.');
  return profile;
}
