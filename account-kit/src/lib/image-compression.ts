// The profile image's size budget (seed §9): a JPEG of about 0.1 MB, found in at most 10 encoding passes, from
// a canvas no larger than the browser allows. The loop is pure over an `encode` function, so it is unit-tested
// with a deterministic encoder; the image editor passes one that draws on a real canvas.

export const TARGET_IMAGE_BYTES = 100_000;
export const MAX_COMPRESSION_PASSES = 10;

/** Largest canvas side per browser family (seed §9). */
export function canvasSideLimit(userAgent: string): number {
  if (/iPhone|iPad|iPod/.test(userAgent)) return 4096;
  if (/Firefox\//.test(userAgent)) return 11180;
  if (/Chrome\/|Chromium\//.test(userAgent)) return 16384;
  return 8192;
}

/** `width`×`height` scaled down (keeping the ratio) so neither side exceeds `limit`. */
export function fitCanvas(width: number, height: number, limit: number): { width: number; height: number } {
  const scale = Math.min(1, limit / Math.max(width, height, 1));
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
}

export interface Encoded<T> { bytes: number; value: T }
export type Encoder<T> = (quality: number, scale: number) => Promise<Encoded<T>>;

/**
 * Encodes at 0.92 quality first. Far too big (over 3× the budget, or quality already near its floor): the
 * picture is made smaller, by the square root of the overshoot as bytes follow the area. Somewhat too big:
 * the quality is bisected. Stops at a result that fits and uses most of the budget (≥ 85 %), or after
 * `maxPasses`; returns the largest result that fitted, else the smallest one made.
 */
export async function compressToTarget<T>(encode: Encoder<T>, targetBytes = TARGET_IMAGE_BYTES, maxPasses = MAX_COMPRESSION_PASSES): Promise<Encoded<T> & { passes: number }> {
  let lo = 0.1;
  let hi = 0.92;
  let quality = hi;
  let scale = 1;
  let best: Encoded<T> | null = null;
  let smallest: Encoded<T> | null = null;
  let passes = 0;
  while (passes < maxPasses) {
    passes++;
    const result = await encode(quality, scale);
    if (!smallest || result.bytes < smallest.bytes) smallest = result;
    if (result.bytes <= targetBytes) {
      if (!best || result.bytes > best.bytes) best = result;
      if (quality >= hi - 0.01 || result.bytes >= targetBytes * 0.85) break;
      lo = quality;
    } else if (result.bytes > targetBytes * 3 || quality <= lo + 0.02) {
      scale *= Math.max(0.3, Math.min(0.9, Math.sqrt(targetBytes / result.bytes) * 0.9));
      lo = 0.1;
      hi = quality;
      continue;
    } else {
      hi = quality;
    }
    quality = (lo + hi) / 2;
  }
  return { ...(best ?? smallest!), passes };
}
