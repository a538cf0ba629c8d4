// Profile image URLs (protocol-resources §1.2, seed §5).

export const PROFILE_IMAGE_URL_MAX_LENGTH = 1_000_000;
export const PROFILE_IMAGE_MIME_SUBTYPES = ['png', 'jpg', 'jpeg', 'gif', 'bmp', 'webp'] as const;
/** The 400 text for a client that sends anything but a base64 image. */
export const INVALID_PROFILE_IMAGE_URL_MESSAGE = 'Invalid profile image URL';

// Loose base64 (padding not length-checked), like the reference's image check: canvas data URLs always pass.
const DATA_URL_PATTERN = /^data:image\/(?:png|jpg|jpeg|gif|bmp|webp);base64,[A-Za-z0-9+/]+={0,2}$/;
const BARE_BASE64_PATTERN = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * What a client may store as profile_image_url: `data:image/<type>;base64,<b64>` or a bare base64 string.
 * `http(s)://` URLs are rejected (only server access may set those).
 */
export function isBase64ImageDataUrl(value: string): boolean {
  return DATA_URL_PATTERN.test(value) || BARE_BASE64_PATTERN.test(value);
}
