// Reading a SAML IdP's metadata (SAML 2.0 Metadata, §2.4.3): its entity id, its single sign-on URL (HTTP-Redirect
// binding, else HTTP-POST) and its signing certificates. Only these fields are read; signatures on the metadata are
// not relied on (an owner pastes it or names its URL over HTTPS, as every IdP's setup guide says).
import { X509Certificate } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const select = xpath.useNamespaces({ md: MD, ds: DS });

export interface IdpMetadata { entityId: string; ssoUrl: string; certificates: string[] }

/** A certificate as PEM, whether given as PEM or as the base64 body metadata carries; null when it is not one. */
export function certificatePem(text: string): string | null {
  const body = text.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+=*$/.test(body)) return null;
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
    return pem;
  } catch {
    return null;
  }
}

/** The IdP's fields, or the first problem found (worded for INVALID_SSO_CONNECTION). */
export function readIdpMetadata(xml: string): IdpMetadata | string {
  let doc: Document;
  const errors: string[] = [];
  try {
    doc = new DOMParser({ errorHandler: (level, msg) => { if (level !== 'warning') errors.push(msg); } }).parseFromString(xml, 'text/xml') as unknown as Document;
  } catch (err) {
    return `the metadata is not valid XML (${err instanceof Error ? err.message : String(err)}).`;
  }
  if (errors.length > 0 || !doc?.documentElement) return 'the metadata is not valid XML.';
  const entity = select("//md:EntityDescriptor[md:IDPSSODescriptor]", doc, true) as Element | undefined;
  if (!entity) return 'the metadata has no EntityDescriptor with an IDPSSODescriptor.';
  const entityId = entity.getAttribute('entityID') ?? '';
  if (!entityId) return 'the metadata has no entityID.';
  const services = select('md:IDPSSODescriptor/md:SingleSignOnService', entity) as Element[];
  const service = services.find((s) => s.getAttribute('Binding') === REDIRECT) ?? services.find((s) => s.getAttribute('Binding') === POST);
  const ssoUrl = service?.getAttribute('Location') ?? '';
  if (!ssoUrl) return 'the metadata has no SingleSignOnService with the HTTP-Redirect or HTTP-POST binding.';
  const keys = select("md:IDPSSODescriptor/md:KeyDescriptor[not(@use) or @use='signing']//ds:X509Certificate", entity) as Element[];
  const certificates = keys.map((k) => certificatePem(k.textContent ?? '')).filter((c): c is string => c !== null);
  if (certificates.length === 0) return 'the metadata has no signing certificate.';
  return { entityId, ssoUrl, certificates: [...new Set(certificates)] };
}
