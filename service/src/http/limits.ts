// Bounded input: request bodies are read up to GATEHOUSE_MAX_BODY_BYTES (413 REQUEST_BODY_TOO_LARGE past it, without
// buffering the rest), and each metadata tier has its own size limit (GATEHOUSE_MAX_*_METADATA_BYTES): a
// self-signed-up user could otherwise store megabytes that every later read of the user carries.
import { KnownErrors } from '@gatehouse/shared/known-errors';

/** 2 MiB: room for a 1,000,000-character profile image data URL next to the other fields. */
export const DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024;

export interface MetadataLimits { client_metadata: number; client_read_only_metadata: number; server_metadata: number }
export const DEFAULT_METADATA_LIMITS: Readonly<MetadataLimits> = Object.freeze({
  client_metadata: 64 * 1024,
  client_read_only_metadata: 256 * 1024,
  server_metadata: 256 * 1024,
});

/** Refuses a body whose declared length is over the limit before anything is read. */
export function assertDeclaredLength(request: Request, maxBytes: number) {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw new KnownErrors.RequestBodyTooLarge(maxBytes);
}

/**
 * The body's bytes: read at once when its length is declared (and checked), else chunk by chunk, a chunked body
 * growing past the limit being cancelled and refused.
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  assertDeclaredLength(request, maxBytes);
  // A body framed by its Content-Length alone is that long at most (the server reads no more), and it was checked
  // above: read it natively, without touching `request.body`. Making Bun build the body's ReadableStream and reading
  // it from JS cost about 100 µs of CPU a request (the refresh grant, measured against the commit that introduced
  // it), so the stream is read only for chunked bodies, whose length nobody declared.
  if (request.headers.has('content-length') && !request.headers.has('transfer-encoding')) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.byteLength > maxBytes) throw new KnownErrors.RequestBodyTooLarge(maxBytes);
    return bytes;
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new KnownErrors.RequestBodyTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) { out.set(c, at); at += c.byteLength; }
  return out;
}

/** Problems (in the validator's wording) of metadata fields of a request body larger than their tier allows. */
export function metadataProblems(body: unknown, limits: MetadataLimits): string[] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
  const problems: string[] = [];
  for (const tier of Object.keys(limits) as (keyof MetadataLimits)[]) {
    const value = (body as Record<string, unknown>)[tier];
    if (value === undefined || value === null) continue;
    const bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
    if (bytes > limits[tier]) problems.push(`body.${tier} must be at most ${limits[tier]} bytes as JSON (got ${bytes})`);
  }
  return problems;
}
