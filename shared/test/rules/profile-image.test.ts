import { describe, expect, test } from 'bun:test';
import { PROFILE_IMAGE_URL_MAX_LENGTH, isBase64ImageDataUrl } from '../../src/rules/profile-image';

describe('isBase64ImageDataUrl (protocol-resources §1.2)', () => {
  test('data URLs of the allowed image types', () => {
    for (const type of ['png', 'jpg', 'jpeg', 'gif', 'bmp', 'webp']) {
      expect(isBase64ImageDataUrl(`data:image/${type};base64,iVBORw0KGgo=`)).toBe(true);
    }
  });

  test('bare base64', () => {
    expect(isBase64ImageDataUrl('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==')).toBe(true);
  });

  test('rejects http URLs, other types, non-base64 and empty payloads', () => {
    for (const s of [
      'https://example.com/a.png',
      'http://example.com/a.png',
      'data:image/svg+xml;base64,PHN2Zz4=',
      'data:image/tiff;base64,AAAA',
      'data:text/plain;base64,AAAA',
      'data:image/png,rawdata',
      'data:image/png;base64,',
      'data:image/png;base64,not base64!',
      'DATA:image/png;base64,AAAA',
      '',
      'abc def',
    ]) {
      expect(isBase64ImageDataUrl(s)).toBe(false);
    }
  });

  test('max length constant', () => {
    expect(PROFILE_IMAGE_URL_MAX_LENGTH).toBe(1_000_000);
  });
});
