// Request bodies by content type, as the protocol defines them (protocol-auth §1.5).
import { KnownErrors } from '@gatehouse/shared/known-errors';
import { DEFAULT_MAX_BODY_BYTES, readBodyBytes } from './limits';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const MAX_JSON_DEPTH = 100;

function depthExceeds(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const x of Array.isArray(v) ? v : Object.values(v)) stack.push([x, depth + 1]);
  }
  return false;
}

function mediaType(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
}

/** What a route's body may come in unless the route says otherwise. */
export const JSON_BODY: readonly string[] = ['application/json'];

/**
 * A body in another content type than the route takes is refused with 415 before it is read (ASVS 13.1.5). This
 * narrows §1.5 for routes with a body: text/plain and forms (which a cross-site page may send without a CORS
 * preflight) never reach a JSON route. No content type (no body) is left to the body's schema.
 */
export function assertBodyType(request: Request, allowed: readonly string[] = JSON_BODY): void {
  if (request.method === 'GET' || request.method === 'HEAD') return;
  const type = mediaType(request);
  if (type && !allowed.includes(type)) throw new KnownErrors.UnsupportedMediaType(type, allowed);
}

export async function parseBody(request: Request, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<unknown> {
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  const contentType = mediaType(request);
  if (!contentType) return undefined;
  const bytes = await readBodyBytes(request, maxBytes);
  if (contentType === 'application/octet-stream') return bytes;
  let text: string;
  try { text = utf8.decode(bytes); } catch {
    throw new KnownErrors.BodyParsingError('Request body cannot be parsed as UTF-8');
  }
  switch (contentType) {
    // SCIM's own JSON media type (RFC 7644 §3.1), which only the SCIM endpoints accept (http/scim.ts).
    case 'application/json':
    case 'application/scim+json': {
      if (text.trim() === '') return undefined;
      let value: unknown;
      try { value = JSON.parse(text); } catch {
        throw new KnownErrors.BodyParsingError('Invalid JSON in request body');
      }
      // Validation, error messages and the database all walk the value recursively: bound its depth.
      if (depthExceeds(value, MAX_JSON_DEPTH)) throw new KnownErrors.BodyParsingError(`JSON in request body is nested more than ${MAX_JSON_DEPTH} levels deep`);
      return value;
    }
    case 'application/x-www-form-urlencoded':
      try { return Object.fromEntries(new URLSearchParams(text)); } catch {
        throw new KnownErrors.BodyParsingError('Invalid form data in request body');
      }
    case 'text/plain':
      return text;
    default:
      throw new KnownErrors.BodyParsingError(`Unknown content type in request body: ${contentType}`);
  }
}
