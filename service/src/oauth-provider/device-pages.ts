// The pages of the device authorization grant (RFC 8628) that the provider serves at `{issuer}/device`: type the
// code, check it is the one the device shows, and "done". Plain, self-contained HTML (no outside font or script):
// signing in and consent are the account kit's, as for any authorization request. `form` is the provider's own
// (its anti-forgery field and the code).
import type { KoaContextWithOIDC } from 'oidc-provider';

const STYLE = 'body{font-family:system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color:#1a1b1e}'
  + 'h1{font-size:1.5rem}input[type=text]{width:100%;box-sizing:border-box;font-size:1.25rem;padding:.5rem;text-transform:uppercase;text-align:center}'
  + 'button{font-size:1rem;padding:.5rem 1rem;margin-top:1rem;border-radius:4px;border:1px solid #228be6;background:#228be6;color:#fff;cursor:pointer}'
  + 'button[name=abort]{background:none;color:#495057;border-color:#ced4da;margin-left:.5rem}.error{color:#c92a2a}code{font-size:1.5rem}'
  + '@media (prefers-color-scheme:dark){body{background:#1a1b1e;color:#e9ecef}}';

function page(ctx: KoaContextWithOIDC, title: string, body: string): void {
  ctx.type = 'html';
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`
    + `<title>${title}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function userCodeInputSource(ctx: KoaContextWithOIDC, form: string, _out?: unknown, err?: Error & { userCode?: unknown }): void {
  // An expired code is told apart (its row outlives it, adapter.ts): the person starts again on the device.
  const message = !err ? '<p>Enter the code shown on your device.</p>'
    : err.name === 'ExpiredError' ? '<p class="error" role="alert">That code has expired. Start again on your device for a new one.</p>'
    : err.userCode || err.name === 'NoCodeError' ? '<p class="error" role="alert">That code is not valid. Check it and try again.</p>'
      : err.name === 'AbortedError' ? '<p class="error" role="alert">The sign-in was cancelled.</p>'
        : '<p class="error" role="alert">The code could not be checked. Try again.</p>';
  const labelled = form.replace('name="user_code"', 'name="user_code" aria-label="Code"');
  page(ctx, 'Connect a device', `<h1>Connect a device</h1>${message}${labelled}<button type="submit" form="op.deviceInputForm">Continue</button>`);
}

export function userCodeConfirmSource(ctx: KoaContextWithOIDC, form: string, client: { clientName?: string; clientId: string }, _info: unknown, userCode: string): void {
  page(ctx, 'Confirm the device', `<h1>Confirm the device</h1><p><strong>${escapeHtml(client.clientName ?? client.clientId)}</strong> asks to sign in on a device showing this code:</p>`
    + `<p><code>${escapeHtml(userCode)}</code></p><p>If your device does not show this code, or you did not start this, cancel.</p>${form}`
    + '<button type="submit" form="op.deviceConfirmForm">Continue</button><button type="submit" form="op.deviceConfirmForm" value="yes" name="abort">Cancel</button>');
}

export function successSource(ctx: KoaContextWithOIDC): void {
  page(ctx, 'Device connected', '<h1>Device connected</h1><p>You can return to your device. This window can be closed.</p>');
}
