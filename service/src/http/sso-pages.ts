// The pages a person sees at the end of an SSO flow that does not return to the app: a refused sign-in (what
// happened, in plain words) and the report of a connection test (what the IdP sent, and what a sign-in would do).
// Self-contained HTML, no script, no outside resource.
import type { KnownError } from '@gatehouse/shared/known-errors';
import type { ConnectionTestReport } from '../sso/connection-test-report';
import { SECURITY_HEADERS } from './respond';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const STYLE = 'body{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#1f2328}'
  + 'h1{font-size:1.5rem}code{background:#f1f3f5;padding:.1rem .3rem;border-radius:4px;overflow-wrap:anywhere}dt{font-weight:600}dd{margin:0 0 .75rem}'
  + '@media (prefers-color-scheme:dark){body{background:#1a1b1e;color:#e9ecef}code{background:#2c2e33}}';

function page(title: string, body: string, status: number): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`
    + `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
  return new Response(html, {
    status,
    headers: { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" },
  });
}

export function ssoErrorPage(error: KnownError): Response {
  return page('Sign-in failed', `<h1>Sign-in failed</h1><p>${escapeHtml(error.message)}</p><p>Error code: <code>${escapeHtml(error.errorCode)}</code></p>`, error.statusCode);
}

export function connectionTestPage(r: ConnectionTestReport): Response {
  const item = (name: string, value: string | null | undefined) => `<dt>${escapeHtml(name)}</dt><dd>${value ? `<code>${escapeHtml(value)}</code>` : '—'}</dd>`;
  const verdict = r.ok
    ? `<p>The identity provider's answer passed every check. A sign-in would ${r.account === 'existing' ? 'sign in the existing account with this address' : 'create a new account, a member of the team'}.</p>`
    : `<p>A sign-in would be refused: ${escapeHtml(r.problem ?? '')}</p>`;
  const identity = r.identity
    ? `<h2>What the identity provider sent</h2><dl>${item('Subject (NameID or sub)', r.identity.subject)}${item('Email', r.identity.email)}${item('Name', r.identity.displayName)}${item('Groups', r.identity.groups.join(', ') || null)}</dl>`
    : '';
  return page('SSO connection test', `<h1>${r.ok ? 'Test succeeded' : 'Test failed'}</h1>${verdict}${identity}<p>Nobody was signed in. You can close this window.</p>`, 200);
}
