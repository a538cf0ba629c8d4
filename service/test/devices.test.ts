// A device for the new-device notice (ASVS 2.5.5), read from the user agent with ua-parser-js: versions do not make a
// new device; another browser, system or kind of device does.
import { describe, expect, test } from 'bun:test';
import { deviceOf } from '../src/auth/devices';

const CHROME_MAC = (v: string) => `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v} Safari/537.36`;
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';

describe('deviceOf', () => {
  test('an update of the browser is the same device; the label names browser and system', () => {
    expect(deviceOf(CHROME_MAC('120.0.0.0')).hash).toBe(deviceOf(CHROME_MAC('131.0.6778.86')).hash);
    expect(deviceOf(FIREFOX_LINUX).label).toBe('Firefox on Linux');
  });

  test('another browser, system or kind of device is another device', () => {
    const hashes = new Set([CHROME_MAC('120.0.0.0'), SAFARI_IPHONE, FIREFOX_LINUX].map((ua) => deviceOf(ua).hash));
    expect(hashes.size).toBe(3);
  });

  test('no user agent is one unknown device; one naming nothing known is told apart by its text', () => {
    expect(deviceOf(null)).toEqual(deviceOf(''));
    expect(deviceOf(null).label).toBe('an unknown device');
    expect(deviceOf('curl/8.5.0').hash).toBe(deviceOf('curl/8.9.1').hash);
    expect(deviceOf('curl/8.5.0').hash).not.toBe(deviceOf('Wget/1.21').hash);
  });
});
