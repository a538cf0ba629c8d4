// The browser and system of a session, read from its user agent with ua-parser-js (issue 25): an iPhone is told
// from a laptop.
import { describe, expect, test } from 'bun:test';
import { sessionDevice } from '../../src/lib/session-device';

describe('sessionDevice', () => {
  test('an iPhone, a Mac, Chromium on Linux and Firefox on Windows are told apart', () => {
    expect(sessionDevice('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'))
      .toEqual({ browser: 'Mobile Safari 17', os: 'iOS 17.4', deviceType: 'mobile' });
    expect(sessionDevice('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15'))
      .toEqual({ browser: 'Safari 17', os: 'Mac OS 10.15.7', deviceType: null });
    expect(sessionDevice('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36'))
      .toEqual({ browser: 'Chrome Headless 156', os: 'Linux', deviceType: null });
    expect(sessionDevice('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0'))
      .toEqual({ browser: 'Firefox 128', os: 'Windows 10', deviceType: null });
  });

  test('no user agent, or one that names nothing known, is unknown', () => {
    expect(sessionDevice(undefined)).toEqual({ browser: null, os: null, deviceType: null });
    expect(sessionDevice('curl/8.5.0').os).toBeNull();
  });
});
