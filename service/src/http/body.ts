// Request bodies by content type, as the protocol defines them (protocol-auth §1.5).
import { KnownErrors } from '@gatehouse/shared/known-errors';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export async function parseBody(request: Request): Promise<unknown> {
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  const contentType = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (!contentType) return undefined;
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (contentType === 'application/octet-stream') return bytes;
  let text: string;
  try { text = utf8.decode(bytes); } catch {
    throw new KnownErrors.BodyParsingError('Request body cannot be parsed as UTF-8');
  }
  switch (contentType) {
    case 'application/json':
      if (text.trim() === '') return undefined;
      try { return JSON.parse(text); } catch {
        throw new KnownErrors.BodyParsingError('Invalid JSON in request body');
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
