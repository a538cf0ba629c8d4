// Fields node-saml does not check, read from the assertion it verified (the signed XML it returns, so a wrapped
// copy elsewhere in the response is never what is read): the assertion's ID (used once), its bearer subject
// confirmation's Recipient (our ACS) and NotOnOrAfter.
import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';

const select = xpath.useNamespaces({ saml: 'urn:oasis:names:tc:SAML:2.0:assertion' });

export interface AssertionFacts { id: string | null; recipient: string | null; notOnOrAfter: Date | null }

export function assertionFacts(assertionXml: string): AssertionFacts {
  const doc = new DOMParser().parseFromString(assertionXml || '<none/>', 'text/xml') as unknown as Document;
  const assertion = select('/saml:Assertion', doc, true) as Element | undefined;
  if (!assertion) return { id: null, recipient: null, notOnOrAfter: null };
  const confirmation = select("saml:Subject/saml:SubjectConfirmation[@Method='urn:oasis:names:tc:SAML:2.0:cm:bearer']/saml:SubjectConfirmationData", assertion, true) as Element | undefined;
  const until = confirmation?.getAttribute('NotOnOrAfter');
  return {
    id: assertion.getAttribute('ID') || null,
    recipient: confirmation?.getAttribute('Recipient') || null,
    notOnOrAfter: until && !Number.isNaN(Date.parse(until)) ? new Date(until) : null,
  };
}
