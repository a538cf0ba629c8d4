// A real SAML 2.0 identity provider for the tests (samlify acting as IdP, signing with xml-crypto): it reads the
// AuthnRequest a browser brings (HTTP-Redirect binding), signs a response for the user it is told to sign in, and
// answers with the auto-submitting form that posts it to the SP's ACS, as an IdP's sign-in page does. Tests also
// call `response()` directly to build forged variants (another key, other audience or times, a replayed or wrapped
// assertion). Its own key pair and certificate are made with openssl when it starts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import * as samlify from 'samlify';

const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

// The test IdP reads only requests made by Gatehouse in the same test; XML schema validation of them is not the
// point of these tests (Gatehouse's side, node-saml, does its own parsing and checks).
samlify.setSchemaValidator({ validate: async () => 'skipped' });

export interface SamlUser { email: string; displayName?: string; groups?: string[] }

/** Template values a forged response changes (samlify's login response template tags). */
export type ResponseTweaks = Partial<Record<'Audience' | 'SubjectRecipient' | 'Destination' | 'ConditionsNotBefore' | 'ConditionsNotOnOrAfter' | 'SubjectConfirmationDataNotOnOrAfter' | 'InResponseTo' | 'Issuer' | 'NameID' | 'AssertionID', string>>;

export interface SpRef { entityId: string; acsUrl: string; metadataXml?: string }

export interface TestSamlIdp {
  entityId: string;
  ssoUrl: string;
  certificatePem: string;
  metadataXml: string;
  /** Who the next browser sign-in signs in as. */
  signInAs(user: SamlUser): void;
  /** A base64 SAMLResponse for the SP, answering `requestId` (null: unsolicited). */
  response(sp: SpRef, o: { user: SamlUser; requestId: string | null; tweaks?: ResponseTweaks; signAssertion?: boolean }): Promise<string>;
  close(): void;
}

function keyPair(dir: string, name: string) {
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, `${name}.key`), '-out', join(dir, `${name}.crt`), '-subj', `/CN=${name}`, '-days', '2'], { stdio: 'ignore' });
  return { key: readFileSync(join(dir, `${name}.key`), 'utf8'), cert: readFileSync(join(dir, `${name}.crt`), 'utf8') };
}

const xmlEscape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function attributeStatement(user: SamlUser): string {
  const attribute = (name: string, values: string[]) =>
    `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${values.map((v) => `<saml:AttributeValue xsi:type="xs:string">${xmlEscape(v)}</saml:AttributeValue>`).join('')}</saml:Attribute>`;
  return `<saml:AttributeStatement>${attribute('email', [user.email])}${user.displayName ? attribute('displayName', [user.displayName]) : ''}${user.groups?.length ? attribute('groups', user.groups) : ''}</saml:AttributeStatement>`;
}

export async function startSamlIdp(name = 'test-idp'): Promise<TestSamlIdp> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-saml-idp-'));
  const { key, cert } = keyPair(dir, name);
  rmSync(dir, { recursive: true, force: true });
  let next: SamlUser = { email: 'nobody@example.com' };
  let idp: ReturnType<typeof samlify.IdentityProvider>;

  const server = Bun.serve({
    port: 0, hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url);
      if (url.pathname !== '/sso') return new Response('not found', { status: 404 });
      // Which SP asked: the AuthnRequest's issuer names its metadata URL (Gatehouse's entity id is that URL).
      const requestXml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString();
      const issuer = /<saml:Issuer[^>]*>([^<]+)<\/saml:Issuer>/.exec(requestXml)?.[1] ?? '';
      const spMetadata = await (await fetch(issuer)).text();
      const sp = samlify.ServiceProvider({ metadata: spMetadata });
      const parsed = await idp.parseLoginRequest(sp, 'redirect', { query: Object.fromEntries(url.searchParams), octetString: '' } as never);
      const requestId = (parsed.extract as { request?: { id?: string } }).request?.id ?? null;
      const acs = /AssertionConsumerServiceURL="([^"]+)"/.exec(requestXml)?.[1] ?? '';
      const samlResponse = await respond({ entityId: issuer, acsUrl: acs, metadataXml: spMetadata }, { user: next, requestId });
      const relayState = url.searchParams.get('RelayState') ?? '';
      const html = `<!doctype html><html><body><form method="post" action="${xmlEscape(acs)}"><input type="hidden" name="SAMLResponse" value="${samlResponse}"><input type="hidden" name="RelayState" value="${xmlEscape(relayState)}"><noscript><button>Continue</button></noscript></form><script>document.forms[0].submit()</script></body></html>`;
      return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } });
    },
  });
  const base = `http://127.0.0.1:${server.port}`;
  idp = samlify.IdentityProvider({
    entityID: `${base}/metadata`, privateKey: key, signingCert: cert, nameIDFormat: [EMAIL_FORMAT],
    singleSignOnService: [{ Binding: REDIRECT, Location: `${base}/sso` }, { Binding: POST, Location: `${base}/sso` }],
  });

  async function respond(sp: SpRef, o: { user: SamlUser; requestId: string | null; tweaks?: ResponseTweaks; signAssertion?: boolean }): Promise<string> {
    const spEntity = o.signAssertion === undefined && sp.metadataXml
      ? samlify.ServiceProvider({ metadata: sp.metadataXml })
      : samlify.ServiceProvider({ entityID: sp.entityId, assertionConsumerService: [{ Binding: POST, Location: sp.acsUrl }], wantAssertionsSigned: o.signAssertion ?? true, wantMessageSigned: !(o.signAssertion ?? true) });
    const now = new Date();
    const later = new Date(now.getTime() + 5 * 60_000).toISOString();
    const values: Record<string, string> = {
      ID: `_${crypto.randomUUID()}`, AssertionID: `_${crypto.randomUUID()}`, Destination: sp.acsUrl, Audience: sp.entityId,
      SubjectRecipient: sp.acsUrl, Issuer: `${base}/metadata`, IssueInstant: now.toISOString(), StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      ConditionsNotBefore: now.toISOString(), ConditionsNotOnOrAfter: later, SubjectConfirmationDataNotOnOrAfter: later,
      NameIDFormat: EMAIL_FORMAT, NameID: o.user.email, InResponseTo: o.requestId ?? '',
      AuthnStatement: `<saml:AuthnStatement AuthnInstant="${now.toISOString()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
      AttributeStatement: attributeStatement(o.user),
      ...o.tweaks,
    };
    const { context } = await idp.createLoginResponse(spEntity, { extract: { request: { id: o.requestId ?? '' } } } as never, 'post', { email: o.user.email }, (template: string) => {
      let xml = template;
      for (const [tag, value] of Object.entries(values)) xml = xml.split(`{${tag}}`).join(tag === 'AuthnStatement' || tag === 'AttributeStatement' ? value : xmlEscape(value));
      // No InResponseTo at all for an unsolicited response (an empty attribute is not the same).
      if (!values.InResponseTo) xml = xml.replace(/ InResponseTo=""/g, '');
      return { id: values.ID!, context: xml };
    }) as { context: string };
    return context;
  }

  return {
    entityId: `${base}/metadata`,
    ssoUrl: `${base}/sso`,
    certificatePem: cert,
    metadataXml: idp.getMetadata(),
    signInAs: (user) => { next = user; },
    response: respond,
    close: () => server.stop(true),
  };
}
