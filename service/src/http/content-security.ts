// The Content-Security-Policy headers of the pages the service serves (issue 30 §8). Scripts come only from the
// service itself, never inline or from eval, so an injected tag cannot run; no page may be framed (clickjacking); no
// plugin, no <base> rewriting. What each page needs beside that is listed with it.

const common = ["default-src 'self'", "script-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"];

/**
 * The account kit's demo (/, /handler/...): styles inline because Mantine writes its CSS variables at run time;
 * images from anywhere over https (users' profile pictures, providers' logos) and data URLs (cropped uploads); the
 * API on this origin, and data URLs (the image editor reads an upload's type by fetching its data URL); forms only
 * to this origin. `imageOrigins`: more places pictures come from, over http: the development OpenID provider, whose
 * accounts' pictures are on it (its origin, only while it runs: never in production).
 */
export function demoPolicy(imageOrigins: readonly string[] = []): string {
  return [
    ...common, "style-src 'self' 'unsafe-inline'", ["img-src 'self' data: https:", ...imageOrigins].join(' '), "font-src 'self' data:", "connect-src 'self' data:", "form-action 'self'",
  ].join('; ');
}
export const DEMO_POLICY = demoPolicy();

/**
 * The console at /console: the policy its index.html states in a meta tag (desktop/src/main/security.ts for the
 * desktop app), sent as a header too, where frame-ancestors can be said; its email previews are same-origin frames.
 * `imageOrigins` as for the demo (users' pictures from the development OpenID provider).
 */
export function consolePolicy(imageOrigins: readonly string[] = []): string {
  return [
    ...common, "style-src 'self' 'unsafe-inline'", ["img-src 'self' data: https:", ...imageOrigins].join(' '), "font-src 'self' data:", "connect-src 'self'", "form-action 'none'", "frame-src 'self'",
  ].join('; ');
}
export const CONSOLE_POLICY = consolePolicy();

/**
 * The API reference (Swagger UI, served from this service): its own stylesheets, data-URL icons, and "try it out"
 * requests to this origin and to the public URL the OpenAPI document names as its server.
 */
export function docsPolicy(publicUrl: string): string {
  let api = '';
  try { api = new URL(publicUrl).origin; } catch { /* an unparsable public URL adds nothing */ }
  return [...common, "style-src 'self'", "img-src 'self' data:", `connect-src 'self'${api ? ` ${api}` : ''}`, "form-action 'self'"].join('; ');
}
